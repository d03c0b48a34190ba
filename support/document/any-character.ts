/**
 * One character from the whole of Unicode that is its own NFKC form, so a target that normalises still
 * has no excuse to store something else; of ASCII, letters and digits only (no markup a filter refuses).
 */
import fc from 'fast-check';

const STANDS_ALONE = /^(?:[A-Za-z0-9]|(?![\0-\x7f])[\p{L}\p{N}\p{S}])$/u;

export const anyCharacter = (): fc.Arbitrary<string> =>
  fc
    .integer({ min: 0x21, max: 0x10ffff })
    .map((cp) => String.fromCodePoint(cp))
    .filter((ch) => STANDS_ALONE.test(ch) && ch.normalize('NFKC') === ch);
