/**
 * One character drawn from the whole of Unicode, every plane: a letter, digit or symbol that is its own
 * compatibility normal form (NFKC), so that a target which normalises or trims still has no excuse to
 * store something else; of ASCII, letters and digits only (no markup a filter may refuse). Most of what is drawn lies outside the Basic Multilingual Plane, as most of
 * Unicode's letters and symbols do.
 */
import fc from 'fast-check';

const STANDS_ALONE = /^(?:[A-Za-z0-9]|(?![\0-\x7f])[\p{L}\p{N}\p{S}])$/u;

export const anyCharacter = (): fc.Arbitrary<string> =>
  fc
    .integer({ min: 0x21, max: 0x10ffff })
    .map((cp) => String.fromCodePoint(cp))
    .filter((ch) => STANDS_ALONE.test(ch) && ch.normalize('NFKC') === ch);
