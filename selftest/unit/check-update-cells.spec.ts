/**
 * The check update's table turned into cells (support/check-update/cells.ts): every class the document
 * names, on both checks, with the document's verdict; where the document is silent, the target's spec
 * decides; frequencyOffset judged on the check after the update; valid values put into rounds; and the
 * faults of the self-test written from the same cells.
 */
import { expect, test } from '@playwright/test';
import { cellsFor, expectationOf, rounds, unitsOf, validCells, type Cell } from '../../support/check-update/cells';
import { VALUE_RULES, type CellContext } from '../../support/check-update/value-rules';
import { maxOffset } from '../../support/check-update/frequency-offset';
import { frequenciesFor } from '../../support/check-update/offset-rules';
import { CHECK_KINDS, EXPECTED_TYPE, UPDATE_TESTS, type CheckKind, type UpdateTestKey } from '../../support/check-update/table';
import { PUBLISHED_NAMES, specFactsOf, type SpecFacts } from '../../support/check-update/vocabulary';
import { CHECK_TYPES, KNOWN_FREQUENCIES, LOCATIONS, RUNTIME_VERSIONS } from '../../support/document/facts';
import { CHECK_UPDATE_GENERATED } from '../faults/generated/check-update';

/** A spec like the reference's: description and runtimeId nullable, every property typed, the lists enumerated. */
const bodySchema = (runtimes: readonly string[], types: readonly string[]) => ({
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string', nullable: true, maxLength: 500 },
    groupOrder: { type: 'integer', nullable: true, minimum: 0 },
    locations: { type: 'array', items: { type: 'string', enum: [...LOCATIONS] } },
    runtimeId: { type: 'string', nullable: true, enum: [...runtimes, null] },
    checkType: { type: 'string', enum: [...types] },
    frequency: { type: 'integer', enum: [...KNOWN_FREQUENCIES] },
    frequencyOffset: { type: 'integer', minimum: 1 },
  },
});
const SPEC: SpecFacts = specFactsOf(bodySchema(RUNTIME_VERSIONS, CHECK_TYPES));
/** A spec that lags behind the document: two runtimes, no BROWSER type. */
const LAGGING: SpecFacts = specFactsOf(
  bodySchema(
    ['2026.04', '2025.04'],
    CHECK_TYPES.filter((t) => t !== 'BROWSER'),
  ),
);

const ctx = (check: CheckKind, spec: SpecFacts = SPEC): CellContext => ({
  check,
  ownType: EXPECTED_TYPE[check],
  names: { ...PUBLISHED_NAMES },
  frequencies: [...KNOWN_FREQUENCIES],
  spec,
  queryParam: 'autoAssignAlerts',
});

/** Frozen, so that the cells can be made once per check and spec (a second of CPU each time) and shared by the tests. */
const frozen = <T>(v: T): T => {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) frozen(x);
  }
  return v;
};
const made = new Map<SpecFacts | undefined, Map<CheckKind, readonly Cell[]>>();
const all = (check: CheckKind, spec?: SpecFacts): readonly Cell[] => {
  const forSpec = made.get(spec) ?? made.set(spec, new Map()).get(spec)!;
  if (!forSpec.has(check))
    forSpec.set(check, frozen(UPDATE_TESTS.filter((t) => t.places.includes(check)).flatMap((t) => unitsOf(cellsFor(t.key, ctx(check, spec))))));
  return forSpec.get(check)!;
};
const byClass = (check: CheckKind, valueClass: string, spec?: SpecFacts): Cell => {
  const found = all(check, spec).find((c) => c.valueClass === `${check}:${valueClass}`);
  if (!found) throw new Error(`no cell ${check}:${valueClass}`);
  return found;
};
const verdictOf = (check: CheckKind, valueClass: string, spec?: SpecFacts) => {
  const c = byClass(check, valueClass, spec);
  return [c.expect, c.clause];
};

test.describe('the table on both checks', () => {
  test('every value class names its check, its property and its class, once per check', () => {
    for (const check of CHECK_KINDS) {
      const classes = all(check).map((c) => c.valueClass);
      for (const cls of classes)
        expect(cls).toMatch(
          new RegExp(
            `^${check}:(name|description|groupOrder|locations|runtimeId|checkType|frequencyOffset|combo|query):([^:]+|(f\\d+:)?(near-miss:[a-z-]+(:\\d+)?|seeded:\\d+))$`,
          ),
        );
      expect(classes.length).toBe(new Set(classes).size);
    }
  });

  test('each body rule has valid and invalid classes on both checks', () => {
    for (const check of CHECK_KINDS) {
      for (const clause of ['CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-2', 'FO-3', 'FO-4'] as const) {
        const cells = all(check).filter((c) => c.clause === clause);
        if (clause !== 'FO-4')
          expect(
            cells.some((c) => c.expect === 'valid'),
            `${check} ${clause} valid`,
          ).toBe(true);
        expect(
          cells.some((c) => c.expect === 'invalid'),
          `${check} ${clause} invalid`,
        ).toBe(true);
      }
    }
  });

  test('both sides of each bound, counted in characters', () => {
    for (const check of CHECK_KINDS) {
      expect(verdictOf(check, 'description:max-ascii')).toEqual(['valid', 'CU-2']);
      expect(verdictOf(check, 'description:over-max-ascii')).toEqual(['invalid', 'CU-2']);
      expect(byClass(check, 'description:max-ascii').body.description).toHaveLength(500);
      // 500 é (two bytes each) and 500 😀 (two UTF-16 units each) are 500 characters.
      const astral = byClass(check, 'description:max-astral').body.description as string;
      expect([...astral]).toHaveLength(500);
      expect(astral.length).toBe(1000);
      expect(verdictOf(check, 'description:max-astral')).toEqual(['valid', 'CU-2']);
      expect(verdictOf(check, 'description:max-multibyte')).toEqual(['valid', 'CU-2']);
      expect([...(byClass(check, 'description:over-max-astral').body.description as string)]).toHaveLength(501);
      expect(verdictOf(check, 'description:over-max-astral')).toEqual(['invalid', 'CU-2']);
      expect(verdictOf(check, 'groupOrder:zero')).toEqual(['valid', 'CU-3']);
      expect(verdictOf(check, 'groupOrder:negative')).toEqual(['invalid', 'CU-3']);
    }
  });

  test('offsets 0, 1, max and max + 1 at every frequency of the API check; the edges on the browser check', () => {
    const api = all('api');
    for (const f of KNOWN_FREQUENCIES.filter((x) => x > 0)) {
      const at = (o: number) => api.find((c) => c.body.frequency === f && c.body.frequencyOffset === o && !c.valueClass.includes('combo'));
      expect(at(0)?.expect, `f${f} 0`).toBe('invalid');
      expect(at(1)?.expect, `f${f} 1`).toBe('valid');
      expect(at(maxOffset(f))?.expect, `f${f} max`).toBe('valid');
      expect(at(maxOffset(f) + 1)?.expect, `f${f} max+1`).toBe('invalid');
      expect(at(maxOffset(f) + 1)?.clause).toBe(f <= 60 ? 'FO-2' : 'FO-3');
    }
    expect(frequenciesFor('browser', KNOWN_FREQUENCIES)).toEqual([0, 1, 60, 120, 1440]);
    for (const o of [10, 20, 30]) {
      expect(verdictOf('api', `frequencyOffset:f0-${o}`)).toEqual(['valid', 'FO-1']);
      expect(verdictOf('browser', `frequencyOffset:f0-${o}`)).toEqual(['invalid', 'FO-5']);
    }
    for (const o of [1, 9, 11, 21, 31]) expect(verdictOf('api', `frequencyOffset:f0-${o}`)).toEqual(['invalid', 'FO-1']);
  });

  test('other types a careless parser accepts, rejected', () => {
    for (const check of CHECK_KINDS) {
      for (const cls of [
        'groupOrder:float',
        'groupOrder:numeric-string',
        'groupOrder:boolean-string',
        'groupOrder:array',
        'groupOrder:object',
        'locations:string',
        'locations:number-item',
        'locations:object',
        'runtimeId:number',
        'runtimeId:array',
        'runtimeId:object',
        'checkType:number',
        'checkType:null',
        'checkType:array',
        'checkType:object',
      ]) {
        expect(byClass(check, cls).expect, cls).toBe('invalid');
      }
      // The near misses of the stored offset: rejected whatever they equal loosely.
      const nearStored = all(check).filter((c) => c.valueClass.startsWith(`${check}:frequencyOffset:near-miss:`));
      expect(nearStored.length).toBeGreaterThan(4);
      for (const c of nearStored) expect([c.expect, c.clause], c.valueClass).toEqual(['invalid', 'FO-4']);
      expect(verdictOf(check, 'groupOrder:null')).toEqual(['valid', 'CU-3']);
      // A string of digits is a description like any other.
      expect(verdictOf(check, 'description:numeric-string')).toEqual(['valid', 'CU-2']);
    }
  });

  test('case variants and look-alikes of every enumerated string, rejected', () => {
    expect(byClass('api', 'locations:upper-case').body).toEqual({ locations: ['US-EAST-1'] });
    expect(byClass('api', 'locations:mixed-case').body).toEqual({ locations: ['Us-East-1'] });
    expect(byClass('api', 'checkType:lower-case').body).toEqual({ checkType: 'api' });
    expect(byClass('browser', 'checkType:mixed-case').body).toEqual({ checkType: 'Browser' });
    for (const check of CHECK_KINDS) {
      for (const l of ['us-east-3', 'eu-west-4', 'ap-south-2']) expect(verdictOf(check, `locations:look-alike-${l}`)).toEqual(['invalid', 'CU-4']);
      for (const v of ['2024.10', '2025.09', '2026.01', '2024.9']) expect(verdictOf(check, `runtimeId:look-alike-${v}`)).toEqual(['invalid', 'CU-5']);
      for (const t of ['APIS', 'BROWSER_CHECK', 'WEB']) expect(verdictOf(check, `checkType:look-alike-${t}`)).toEqual(['invalid', 'CU-6']);
      for (const cls of ['locations:upper-case', 'locations:mixed-case', 'checkType:lower-case', 'checkType:mixed-case'])
        expect(byClass(check, cls).expect).toBe('invalid');
    }
  });

  test('empty values: a description may be empty; locations and a check type may not', () => {
    for (const check of CHECK_KINDS) {
      expect(verdictOf(check, 'description:empty')).toEqual(['valid', 'CU-2']);
      expect(byClass(check, 'description:empty').readsBackAs?.description).toEqual(['', null]);
      expect(verdictOf(check, 'locations:empty')).toEqual(['invalid', 'CU-4']);
      expect(verdictOf(check, 'checkType:empty')).toEqual(['invalid', 'CU-6']);
    }
  });

  test('another documented type may be taken or refused; the check\'s own type is never "another"', () => {
    const toBrowser = byClass('api', 'checkType:other-BROWSER');
    expect(toBrowser.expect).toBe('either');
    expect(toBrowser.outsideSpecEnum).toBeUndefined();
    expect(byClass('browser', 'checkType:other-API').expect).toBe('either');
    expect(all('api').some((c) => c.valueClass === 'api:checkType:other-API')).toBe(false);
    // Judged with a frequency other than 0, so the type is judged alone.
    expect(toBrowser.given).toEqual({ frequency: 10, frequencyOffset: 1 });
  });

  test('a value the document allows that the spec lags behind on: taken or refused, never failed; an echo of it is drift', () => {
    expect(byClass('api', 'checkType:other-BROWSER', LAGGING).outsideSpecEnum).toEqual(['checkType']);
    // The browser check's own type, unlisted: valid by the document, either answer fine here.
    expect(byClass('browser', 'checkType:own', LAGGING)).toMatchObject({ expect: 'either', outsideSpecEnum: ['checkType'] });
    expect(byClass('api', 'runtimeId:listed-2024.09', LAGGING)).toMatchObject({ expect: 'either', outsideSpecEnum: ['runtimeId'] });
    expect(byClass('api', 'runtimeId:listed-2026.04', LAGGING).expect).toBe('valid');
    // Out of the rounds (a refusal is no failure there), into the rule's own test.
    expect(unitsOf(rounds(validCells(ctx('api', LAGGING)))).some((c) => c.valueClass === 'api:runtimeId:listed-2024.09')).toBe(false);
    expect(cellsFor('CU-5', ctx('api', LAGGING)).map((c) => c.valueClass)).toContain('api:runtimeId:listed-2024.09');
  });
});

test.describe("where the document is silent, the target's spec decides", () => {
  const untyped = specFactsOf({ type: 'object', properties: { description: {}, locations: { type: 'array', nullable: true }, runtimeId: { type: 'string' } } });

  test('null: a description is valid where the spec declares it nullable, either answer fine elsewhere', () => {
    expect(verdictOf('api', 'description:null')).toEqual(['valid', 'CU-2']);
    expect(verdictOf('api', 'description:null', untyped)).toEqual(['either', 'CU-2']);
  });

  test('null: locations and runtimeId (lists without null in the document) rejected, unless the spec declares null', () => {
    expect(verdictOf('api', 'locations:null')).toEqual(['invalid', 'CU-4']);
    expect(verdictOf('api', 'runtimeId:null')).toEqual(['either', 'CU-5']);
    expect(verdictOf('api', 'locations:null', untyped)).toEqual(['either', 'CU-4']);
    expect(verdictOf('api', 'runtimeId:null', untyped)).toEqual(['invalid', 'CU-5']);
  });

  test('a description of another JSON type: rejected where the spec types it a string, either answer fine where it does not say', () => {
    for (const cls of ['number', 'boolean', 'array', 'object']) {
      expect(byClass('api', `description:${cls}`).expect).toBe('invalid');
      expect(byClass('api', `description:${cls}`, untyped).expect).toBe('either');
    }
    expect(expectationOf('invalid-unless-admitted', 'description', 5, specFactsOf({ properties: { description: { type: ['string', 'number'] } } }))).toBe(
      'either',
    );
  });
});

test.describe('frequencyOffset judged on the check after the update', () => {
  const combo = (check: CheckKind, name: string) => byClass(check, `combo:${name}`);

  test('the offset alone, against a stored frequency of 10 and of 120', () => {
    for (const check of CHECK_KINDS) {
      expect(combo(check, 'offset-alone-at-f10-max')).toMatchObject({
        body: { frequencyOffset: 100 },
        given: { frequency: 10, frequencyOffset: 1 },
        expect: 'valid',
      });
      expect(combo(check, 'offset-alone-at-f10-max+1')).toMatchObject({ body: { frequencyOffset: 101 }, expect: 'invalid', clause: 'FO-2' });
      expect(combo(check, 'offset-alone-at-f120-max')).toMatchObject({ body: { frequencyOffset: 2 }, given: { frequency: 120 }, expect: 'valid' });
      expect(combo(check, 'offset-alone-at-f120-max+1')).toMatchObject({ body: { frequencyOffset: 3 }, expect: 'invalid', clause: 'FO-3' });
    }
  });

  test('the frequency alone, when the stored offset is out of range for it: rejected', () => {
    for (const check of CHECK_KINDS) {
      expect(combo(check, 'frequency-alone-to-f120-offset-out-of-range')).toMatchObject({
        body: { frequency: 120 },
        given: { frequency: 10, frequencyOffset: 100 },
        expect: 'invalid',
        clause: 'FO-3',
      });
      expect(combo(check, 'frequency-alone-to-f10-offset-in-range')).toMatchObject({
        body: { frequency: 10 },
        given: { frequency: 120, frequencyOffset: 2 },
        expect: 'valid',
      });
      // Lowered within 1..60: the stored offset (101, fine at 60) is one over what 10 allows.
      expect(combo(check, 'frequency-alone-down-to-f10-offset-out-of-range')).toMatchObject({
        body: { frequency: 10 },
        given: { frequency: 60, frequencyOffset: 101 },
        expect: 'invalid',
        clause: 'FO-2',
      });
      expect(combo(check, 'frequency-alone-up-to-f60-offset-in-range')).toMatchObject({
        body: { frequency: 60 },
        given: { frequency: 10, frequencyOffset: 100 },
        expect: 'valid',
      });
    }
    expect(combo('api', 'frequency-alone-to-f0-offset-too-small')).toMatchObject({ body: { frequency: 0 }, expect: 'invalid', clause: 'FO-1' });
    expect(combo('api', 'frequency-alone-to-f0-offset-10')).toMatchObject({
      body: { frequency: 0 },
      given: { frequencyOffset: 10 },
      expect: 'valid',
      clause: 'FO-1',
    });
  });

  test('frequency 0 is for API checks only (FO-5): sent alone to the browser check, the type alone or with it in one body to the API check', () => {
    expect(combo('browser', 'frequency-alone-to-f0')).toMatchObject({
      body: { frequency: 0 },
      given: { checkType: 'BROWSER', frequencyOffset: 10 },
      expect: 'invalid',
      clause: 'FO-5',
    });
    expect(combo('api', 'type-alone-to-BROWSER-at-f0')).toMatchObject({
      body: { checkType: 'BROWSER' },
      given: { frequency: 0, frequencyOffset: 10 },
      expect: 'invalid',
      clause: 'FO-5',
    });
    expect(combo('api', 'to-BROWSER-at-f0-in-one-body')).toMatchObject({
      body: { checkType: 'BROWSER', frequency: 0, frequencyOffset: 10 },
      expect: 'invalid',
      clause: 'FO-5',
    });
  });

  test("every frequencyOffset cell presumes the check's own type", () => {
    for (const check of CHECK_KINDS) {
      for (const c of all(check).filter((x) => 'frequency' in x.body || 'frequencyOffset' in x.body))
        expect(c.given?.checkType, c.valueClass).toBe(EXPECTED_TYPE[check]);
    }
  });

  test('a frequency the target does not list is not tried, and combinations that need it are left out', () => {
    const noZero = { ...ctx('api'), frequencies: KNOWN_FREQUENCIES.filter((f) => f !== 0) };
    const cells = UPDATE_TESTS.flatMap((t) => unitsOf(cellsFor(t.key, noZero)));
    expect(cells.some((c) => c.body.frequency === 0 || c.given?.frequency === 0)).toBe(false);
    expect(cellsFor('FO-zero', noZero)).toEqual([]);
  });
});

test.describe('rounds: several valid values in one body', () => {
  test('each round carries at most one value of each property (a frequency and its offset together); every valid value is in one', () => {
    for (const check of CHECK_KINDS) {
      const valid = validCells(ctx(check));
      const r = rounds(valid);
      expect(
        unitsOf(r)
          .map((c) => c.valueClass)
          .sort(),
      ).toEqual(valid.map((c) => c.valueClass).sort());
      for (const round of r.filter((x) => x.units)) {
        const keys = round.units!.map((u) => Object.keys(u.body).sort().join('+'));
        expect(keys.length).toBe(new Set(keys).size);
        expect(round.body).toEqual(Object.assign({}, ...round.units!.map((u) => u.body)));
        expect(round.expect).toBe('valid');
      }
      // As many rounds as the property with the most valid values, the first in two halves sent at once,
      // of different properties.
      const keyOf = (c: { body: object }) => Object.keys(c.body).sort().join('+');
      expect(r.length).toBe(1 + Math.max(...valid.map((c) => valid.filter((x) => keyOf(x) === keyOf(c)).length)));
      const [a, b] = r;
      expect([a.together, b.together, a.valueClass.endsWith(':round:1a'), b.valueClass.endsWith(':round:1b')]).toEqual([true, undefined, true, true]);
      expect(Object.keys(a.body).filter((k) => k in b.body)).toEqual([]);
      expect(a.units!.every((u) => !u.given)).toBe(true);
    }
  });

  test("null comes last among a property's values, so a read after the rounds shows whether it was stored", () => {
    const r = rounds(validCells(ctx('api')));
    const last = (p: string) => [...r].reverse().find((x) => p in x.body)!;
    expect(last('description').body.description).toBeNull();
    expect(last('groupOrder').body.groupOrder).toBeNull();
  });
});

test.describe('request economy', () => {
  /**
   * What a default run against a target like the reference sends: each cell (a round is one update),
   * a set-up where a cell presumes a state the check is not in, a read per batch of 20 and before a
   * body the target may take, and the snapshot's reads, CU-8 and CU-9.
   */
  function requests(): number {
    let n = 2 + 2 + 2;
    const state: Record<CheckKind, Record<string, unknown>> = {
      api: { checkType: 'API', frequency: 10, frequencyOffset: 1 },
      browser: { checkType: 'BROWSER', frequency: 10, frequencyOffset: 1 },
    };
    for (const t of UPDATE_TESTS) {
      for (const check of t.places) {
        const cells = cellsFor(t.key, ctx(check));
        const s = state[check];
        for (const c of cells) {
          if (c.given && Object.entries(c.given).some(([k, v]) => JSON.stringify(s[k]) !== JSON.stringify(v))) {
            n++;
            Object.assign(s, c.given);
          }
          if (c.expect !== 'invalid') Object.assign(s, c.body);
        }
        n += cells.length + Math.ceil(cells.length / 20) + (cells.some((c) => c.expect === 'either') ? 1 : 0);
      }
    }
    return n;
  }

  // The default run's budget is 600 requests outside the rate-limit family; the other families send about 130.
  test('the family stays well under 450 requests in a default run', () => {
    const n = requests();
    test.info().annotations.push({ type: 'requests', description: String(n) });
    expect(n).toBeLessThan(450);
  });
});

test('the listed values a check may refuse are shared between the two checks where both are updated, all on one check alone', () => {
  for (const spec of [SPEC, LAGGING])
    for (const rule of VALUE_RULES.filter((r) => r.test)) {
      const refusedListed = (check: CheckKind, otherCheck: boolean) =>
        cellsFor(rule.clause as UpdateTestKey, { ...ctx(check, spec), otherCheck })
          .filter((c) => c.expect !== 'valid' && !/near-miss|seeded|other-/.test(c.valueClass))
          .map((c) => c.valueClass.slice(check.length));
      const [api, browser] = CHECK_KINDS.map((k) => refusedListed(k, true));
      const [apiAlone, browserAlone] = CHECK_KINDS.map((k) => refusedListed(k, false));
      expect(api.length && browser.length, rule.clause).toBeTruthy();
      // Each class goes to one check. Where the spec lags, a class refused on one check may be valid on the other, and go there.
      expect(
        api.filter((c) => browser.includes(c)),
        rule.clause,
      ).toEqual([]);
      const refusedOnBoth = apiAlone.filter((c) => browserAlone.includes(c));
      expect(
        refusedOnBoth.filter((c) => !api.includes(c) && !browser.includes(c)),
        rule.clause,
      ).toEqual([]);
      if (spec === SPEC) expect([...api, ...browser].sort(), rule.clause).toEqual([...apiAlone].sort());
    }
});

test.describe('faults of the self-test, from the same cells', () => {
  const decode = (fault: string) => {
    const [kind, type, pattern] = fault.split(':');
    return { kind, type, pattern: pattern === undefined ? undefined : JSON.parse(decodeURIComponent(pattern)) };
  };

  // A near miss is proven once per rule and operator, on one of the checks (they take turns in the cells).
  const operatorOf = (c: { valueClass?: string }) => /:(near-miss:[a-z-]+)/.exec(c.valueClass ?? '')?.[1];
  const ruleOperator = (c: { clause: string; valueClass?: string }) => `${c.clause}:${c.valueClass!.split(':')[1]}:${operatorOf(c)}`;

  test('every near-miss operator of every rule is accepted by one fault', () => {
    const proven = new Set(CHECK_UPDATE_GENERATED.filter(operatorOf).map(ruleOperator));
    for (const check of CHECK_KINDS) {
      for (const cell of all(check).filter((c) => c.expect === 'invalid' && operatorOf(c))) expect(proven.has(ruleOperator(cell)), cell.valueClass).toBe(true);
    }
  });

  test('every value the document forbids is accepted by one fault, every value it allows refused by one', () => {
    const faults = CHECK_UPDATE_GENERATED;
    for (const check of CHECK_KINDS) {
      // As a default run sends them: both checks updated, the listed refusals shared between them.
      const sent = UPDATE_TESTS.filter((t) => t.places.includes(check)).flatMap((t) => unitsOf(cellsFor(t.key, { ...ctx(check), otherCheck: true })));
      for (const cell of sent.filter((c) => c.expect !== 'either' && !operatorOf(c))) {
        const kind = cell.expect === 'invalid' ? 'accept' : 'refuse';
        const f = faults.find((x) => {
          const d = decode(x.fault);
          return d.kind === kind && d.type === EXPECTED_TYPE[check] && JSON.stringify(d.pattern) === JSON.stringify(cell.body);
        });
        expect(f, `${kind} ${cell.valueClass}`).toBeDefined();
        expect(f!.direction).toBe(kind === 'accept' ? 'loose' : 'strict');
        expect(f!.place).toBe('check-update');
        expect(f!.files).toEqual(['tests/check-update.spec.ts']);
      }
    }
  });

  test('every argument that may hold "," or ":" travels encoded; each fault is listed once', () => {
    for (const f of CHECK_UPDATE_GENERATED) expect(f.fault.split(':').length, f.fault).toBeLessThanOrEqual(3);
    expect(new Set(CHECK_UPDATE_GENERATED.map((f) => f.fault)).size).toBe(CHECK_UPDATE_GENERATED.length);
  });

  test('a refused body that leaks one property, for each kind the refused bodies carry', () => {
    const leaks = CHECK_UPDATE_GENERATED.filter((f) => f.fault.startsWith('leak:')).map((f) => f.fault);
    expect(leaks).toEqual(['leak:name', 'leak:muted', 'leak:tags', 'leak:retryStrategy', 'leak:frequencyOffset']);
    for (const f of CHECK_UPDATE_GENERATED.filter((x) => x.fault.startsWith('leak:')))
      expect(f).toMatchObject({ clause: 'CU-7', place: 'check-update', direction: 'loose' });
  });
});
