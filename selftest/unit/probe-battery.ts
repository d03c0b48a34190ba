/**
 * One generic battery of requests, derived from the document's routes and values and the suite's own
 * tables (runtime ids, unknown ids, credential probes, update cells), sent alike to a clean reference
 * service and to one with a fault: the fault is shown to break the reference when some answer differs
 * (status, content type, headers but the date, body, or what a later read shows). Not written per
 * fault: selftest/self/probe.ts runs it for a survivor of the self-test, fault-probes.spec.ts for the faults no list expects.
 */
import { connect, type AddressInfo } from 'node:net';
import { ACCEPT_ENCODING } from '../../support/http/transport';
import { OVER_USUAL_LIMITS_CHARS } from '../../support/request-lens/operators';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { readConfig } from '../../reference/service/config';
import type { ServiceOptions } from '../../reference/service/app';
import {
  AUTH,
  AUTH2,
  DEMO_ACCOUNT_ID,
  DEMO_KEY,
  fakeClock,
  OTHER_GUID,
  SECOND_ACCOUNT_ID,
  SEEDED_API_CHECK,
  SEEDED_API_CHECK_ID,
  SEEDED_BROWSER_CHECK_ID,
  service,
  type FakeClock,
} from './reference-testing';
import { AUTH_PLACES, AUTH_PROBES, probeApplies, type AuthPlace } from '../../support/auth/table';
import { carriersFor, planCarriers } from '../../support/check-update/carriers';
import { cellsFor, unitsOf, type Cell } from '../../support/check-update/cells';
import { OVER_LIMIT_CHARS } from '../../support/check-update/rejections';
import { EXPECTED_TYPE, UPDATE_TESTS, type CheckKind } from '../../support/check-update/table';
import { resolveVocabulary, specFactsOf } from '../../support/check-update/vocabulary';
import { askHeaders, CLIENT_ASKS, RUNTIME_VERSIONS } from '../../support/document/facts';
import { declaredCaseSeed } from '../../support/run/config';
import { generatedIds, UNKNOWN_IDS } from '../../support/runtime/ids';
import type { SpecOperation } from '../../support/spec/spec';
import { referenceUpdate } from '../faults/generated/check-update';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Headers = Record<string, string>;

/** The headers a request carries: those given `null` left out. */
const sent = (h: Record<string, string | null>): Headers => Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== null));

/** A setting of the service the battery runs under (its options but the clock, always a fake one). */
export interface Setting {
  name: string;
  options: ServiceOptions;
}

/** The service options an environment gives (as main.ts reads it), without the faults. */
function optionsOf(env: Record<string, string> = {}): ServiceOptions {
  const c = readConfig({ ...env, MOCK_FAULT: '', REFERENCE_PLUGINS: '' });
  return {
    rateLimitMax: c.rateLimitMax,
    rateLimitWindowS: c.rateLimitWindowS,
    rateLimitAlgorithm: c.rateLimitAlgorithm,
    rateLimitCountRefused: c.rateLimitCountRefused,
    rateLimitHeaders: c.rateLimitHeaders,
    accountHeader: c.accountHeader,
  };
}

/** A limit small enough for the battery's rate-limit sequence to cross it (and the route's own limit above it). */
const SMALL_LIMIT = 3;

/** The settings a fault is probed under: the environment's own, then a small limit under it. */
export function settingsFor(env?: Record<string, string>): Setting[] {
  const base = optionsOf(env);
  const tag = env ? ` ${JSON.stringify(env)}` : '';
  return [
    { name: `default${tag}`, options: base },
    { name: `limit ${SMALL_LIMIT}${tag}`, options: { ...base, rateLimitMax: SMALL_LIMIT } },
  ];
}

// ---- what is observed -------------------------------------------------------------------------------

/** The moment of an update, read from the wall clock (not the service's): its form is compared, not its value. */
const UPDATED_AT = /("updated_at":")\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g;

/** An answer as compared: everything but the date (and the connection's own headers). */
function observed(res: { statusCode: number; headers: Record<string, unknown>; body: string }): string {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers;
  const sorted = Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify([res.statusCode, sorted, res.body.replace(UPDATED_AT, '$1<ISO instant>"')]);
}

/** Raised at the first answer that differs from the clean one: the rest need not be sent. */
class Differs extends Error {}

class Run {
  readonly answers: string[] = [];
  /** Where each part's answers start. */
  readonly marks: number[] = [];
  constructor(
    readonly app: FastifyInstance,
    readonly clock: FakeClock,
    readonly setting: Setting,
    private readonly clean?: readonly string[],
  ) {}

  /** A fresh window of the rate limit: each part starts under the limit of the setting. */
  freshWindow(): void {
    this.clock.tick(((this.setting.options.rateLimitWindowS ?? 60) + 1) * 1000);
  }

  note(answer: string): void {
    const i = this.answers.push(answer) - 1;
    if (this.clean && this.clean[i] !== answer) throw new Differs(`answer ${i}`);
  }

  /** An answer, or what inject threw (a fault that breaks the service outright shows as surely). */
  private async answer(opts: InjectOptions) {
    try {
      const res = await this.app.inject(opts);
      return { res, seen: observed(res) };
    } catch (e) {
      return { res: { statusCode: 0, body: '' }, seen: `threw ${(e as Error).message}` };
    }
  }

  async send(opts: InjectOptions): Promise<{ status: number; json: Json }> {
    const { res, seen } = await this.answer(opts);
    this.note(seen);
    let json: Json;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json };
  }

  /** Several requests at the same moment, their answers noted in the order they were asked. */
  async together(all: InjectOptions[]): Promise<void> {
    for (const { seen } of await Promise.all(all.map((o) => this.answer(o)))) this.note(seen);
  }
}

// ---- the parts of the battery ---------------------------------------------------------------------

const CHECK = (id = SEEDED_API_CHECK_ID) => `/v1/checks/${id}`;
const RUNTIME = '/v1/runtimes/2025.04';
const UNKNOWN_CHECK = '00000000-0000-4000-8000-000000000000';
const ACCOUNT = 'x-service-account';

/** Headers with the nulls of an override dropped. */
const merge = (base: Headers, over: Record<string, string | null | undefined>): Headers => {
  const out: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null || v === undefined) delete out[k.toLowerCase()];
    else out[k.toLowerCase()] = v;
  }
  return out;
};

const withQuery = (url: string, query?: Record<string, string>) => (query && Object.keys(query).length ? `${url}?${new URLSearchParams(query)}` : url);

/** The document's routes and the request each route's place sends. */
const PLACE_REQUEST: Record<AuthPlace | 'spec', { method: 'GET' | 'PUT'; url: string; payload?: object }> = {
  runtime: { method: 'GET', url: RUNTIME },
  'check-read': { method: 'GET', url: CHECK() },
  'check-update': { method: 'PUT', url: CHECK(), payload: { name: 'renamed by a probe' } },
  collection: { method: 'GET', url: '/v1/runtimes' },
  spec: { method: 'GET', url: '/openapi.json' },
};

const sameTwice = (f: () => unknown) => JSON.stringify(f()) === JSON.stringify(f());

/** Credentials broken one rule at a time: the suite's AUTH probes (the deterministic ones), and fixed stand-ins for its random ones. */
function credentialProbes(place: AuthPlace): Array<{ headers: Headers; query?: Record<string, string>; method?: 'HEAD' }> {
  const creds = { apiKey: DEMO_KEY, accountId: DEMO_ACCOUNT_ID, otherAccountId: SECOND_ACCOUNT_ID };
  const out = AUTH_PROBES.filter((p) => probeApplies(p, place) || !p.places)
    .filter((p) => sameTwice(() => p.headers(creds, ACCOUNT, place)))
    .map((p) => ({ headers: merge(AUTH, p.headers(creds, ACCOUNT, place)), query: p.query?.(creds), method: p.method }));
  const bearer = { authorization: AUTH.authorization };
  return [
    ...out,
    { headers: { ...AUTH, authorization: 'Bearer mon_demo_00000000000000000000000000000000' } },
    { headers: { ...bearer, [ACCOUNT]: OTHER_GUID } },
    { headers: { ...bearer, [ACCOUNT]: '00000000-0000-0000-0000-000000000000' } },
    { headers: { ...bearer, [ACCOUNT]: `x${DEMO_ACCOUNT_ID}` } },
    { headers: { ...bearer, [ACCOUNT]: DEMO_ACCOUNT_ID.replace(/-/g, '') } },
    { headers: { ...bearer, [ACCOUNT]: DEMO_ACCOUNT_ID.toUpperCase() } },
    { headers: { ...bearer, [ACCOUNT]: `${DEMO_ACCOUNT_ID},${DEMO_ACCOUNT_ID}` } },
    { headers: { ...bearer, 'x-account-id': DEMO_ACCOUNT_ID } },
    { headers: { ...AUTH2 } },
    { headers: { ...AUTH, authorization: `bearer ${DEMO_KEY}` } },
    { headers: { ...AUTH, authorization: `Bearer  ${DEMO_KEY}` } },
    { headers: { [ACCOUNT]: DEMO_ACCOUNT_ID, accept: 'text/html' } },
    { headers: {} },
  ];
}

/** The update's cells as the suite sends them (its tables, the reference's spec), one body each, on both checks. */
interface UpdateProbe {
  check: CheckKind;
  body: Json;
  expect: Cell['expect'];
  given?: Json;
  query?: Record<string, string>;
}
let cellsOnce: UpdateProbe[] | undefined;
function updateProbes(): UpdateProbe[] {
  if (cellsOnce) return cellsOnce;
  const { op, body } = referenceUpdate();
  const names = resolveVocabulary(body);
  const spec = specFactsOf(body);
  const frequencies = (spec.enumOf(names.frequency!) ?? []).filter((f): f is number => typeof f === 'number').sort((a, b) => a - b);
  const queryParam = (op.parameters ?? []).find((p: Json) => p?.in === 'query' && p?.schema?.type === 'boolean')?.name;
  const seen = new Set<string>();
  const out: UpdateProbe[] = [];
  for (const t of UPDATE_TESTS)
    for (const check of t.places)
      for (const cell of unitsOf(cellsFor(t.key, { check, ownType: EXPECTED_TYPE[check], names, frequencies, spec, queryParam, seed: declaredCaseSeed() }))) {
        if (cell.headers || cell.wire || cell.trailingComma) continue;
        const key = JSON.stringify([check, cell.body, cell.given, cell.query]);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ check, body: cell.body, expect: cell.expect, given: cell.given, query: cell.query });
      }
  return (cellsOnce = out);
}

let carrierPlanOnce: ReturnType<typeof planCarriers> | undefined;
/** Valid changes of each kind (a name, a flag, an array, an object, the offset) that a refused body carries. */
function carriers(exclude: string[]): Json {
  carrierPlanOnce ??= planCarriers({ op: referenceUpdate().op } as SpecOperation, resolveVocabulary(referenceUpdate().body));
  const c = carriersFor(carrierPlanOnce, SEEDED_API_CHECK as Json, 'carried', exclude);
  return exclude.includes('frequencyOffset') || exclude.includes('frequency') ? c : { ...c, frequencyOffset: 2 };
}

const checkIdOf = (check: CheckKind) => (check === 'api' ? SEEDED_API_CHECK_ID : SEEDED_BROWSER_CHECK_ID);
const json = (h: Headers = AUTH) => ({ ...h, 'content-type': 'application/json' });
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function specPart(r: Run) {
  for (const url of ['/openapi.json', '/swagger.json']) {
    await r.send({ url });
    await r.send({ url, headers: { ...AUTH } });
    await r.send({ method: 'HEAD', url });
    // As real clients ask: a compressed answer must say so.
    await r.send({ url, headers: { 'accept-encoding': ACCEPT_ENCODING } });
  }
}

async function runtimePart(r: Run) {
  await r.send({ url: '/v1/runtimes', headers: { ...AUTH } });
  for (const v of RUNTIME_VERSIONS) await r.send({ url: `/v1/runtimes/${v}`, headers: { ...AUTH } });
  const ids = [...UNKNOWN_IDS, ...generatedIds(declaredCaseSeed())].map((u) => u.id);
  for (const id of [...ids, '..%2F2025.04', `${'9'.repeat(1500)}`, '%E2%82%AC', '2025.04/', '2025.04%00', '02025.04', '2025.040', '+2025.04'])
    await r.send({ url: `/v1/runtimes/${id}`, headers: { ...AUTH } });
  for (const accept of ['*/*', 'text/html', 'application/json; q=0.9', 'application/*', 'text/plain', 'application/xml'])
    await r.send({ url: RUNTIME, headers: { ...AUTH, accept } });
  // What the clients there are ask for besides (the languages among it).
  for (const ask of CLIENT_ASKS) await r.send({ url: RUNTIME, headers: { ...AUTH, ...sent(askHeaders(ask)) } });
  // Reads of different runtimes in flight at once.
  await r.together(RUNTIME_VERSIONS.map((v) => ({ url: `/v1/runtimes/${v}`, headers: { ...AUTH } })));
}

async function authPart(r: Run) {
  for (const place of [...AUTH_PLACES, 'spec'] as const) {
    const req = PLACE_REQUEST[place];
    for (const p of credentialProbes(place === 'spec' ? 'collection' : place)) {
      await r.send({
        method: p.method ?? req.method,
        url: withQuery(req.url, p.query),
        headers: req.payload ? json(p.headers) : p.headers,
        payload: req.payload,
      });
      // A refused update followed by a read: a refusal changes nothing.
      if (place === 'check-update') await r.send({ url: CHECK(), headers: { ...AUTH } });
    }
  }
}

async function methodPart(r: Run) {
  const urls = [RUNTIME, '/v1/runtimes', CHECK(), '/openapi.json'];
  for (const url of urls)
    for (const method of ['HEAD', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'PUT'] as const) {
      if (url === CHECK() && method === 'PUT') continue;
      await r.send({ method, url, headers: { ...AUTH } });
      await r.send({ method, url });
    }
  for (const url of [
    '/v1/nothing',
    '/nothing',
    '/',
    '/v1',
    '/v1/checks',
    `${CHECK()}/`,
    '/v2/runtimes/2025.04',
    '/v1/Runtimes/2025.04',
    `${RUNTIME}?x=1`,
    `${RUNTIME}/`,
  ])
    await r.send({ url, headers: { ...AUTH } });
  await r.send({ url: '/v1/nothing' });
}

async function checkReadPart(r: Run) {
  for (const id of [SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID, UNKNOWN_CHECK, OTHER_GUID, 'not-a-check-id', SEEDED_API_CHECK_ID.toUpperCase()]) {
    await r.send({ url: CHECK(id), headers: { ...AUTH } });
    await r.send({ url: CHECK(id), headers: { ...AUTH2 } });
  }
}

/** Bodies that are no JSON object, or not JSON, or of another media type, or too large; each followed by a read. */
async function bodyShapePart(r: Run) {
  const name = { name: 'a new name' };
  const sent: Array<[string | undefined, string]> = [
    ['application/json', JSON.stringify(name)],
    ['application/json; charset=utf-8', JSON.stringify(name)],
    ['application/json; charset=UTF-8', JSON.stringify({ name: 'charset upper' })],
    ['application/json;charset=utf-8', JSON.stringify({ name: 'charset no space' })],
    ['Application/JSON', JSON.stringify({ name: 'other case' })],
    ['text/plain', JSON.stringify({ name: 'as text' })],
    ['application/merge-patch+json', JSON.stringify({ name: 'merge patch' })],
    ['application/x-www-form-urlencoded', 'name=form'],
    [undefined, JSON.stringify({ name: 'no type' })],
    ['application/json', '{"name": '],
    ['application/json', ''],
    ['application/json', '[]'],
    ['application/json', JSON.stringify([{ name: 'from an array' }])],
    ['application/json', '"a string"'],
    ['application/json', '42'],
    ['application/json', 'null'],
    ['application/json', '{"name": "trailing comma",}'],
    ['application/json', '{}'],
    ['application/json', JSON.stringify({ description: 'd'.repeat(OVER_LIMIT_CHARS) })],
  ];
  for (const id of [SEEDED_API_CHECK_ID, UNKNOWN_CHECK, 'not-a-check-id'])
    for (const [type, payload] of sent) {
      await r.send({ method: 'PUT', url: CHECK(id), headers: type ? { ...AUTH, 'content-type': type } : { ...AUTH }, payload });
      if (id === SEEDED_API_CHECK_ID) await r.send({ url: CHECK(id), headers: { ...AUTH } });
    }
  // Two problems at once: an invalid body to an unknown check, with bad credentials.
  await r.send({ method: 'PUT', url: CHECK(UNKNOWN_CHECK), headers: json(), payload: { frequencyOffset: 0 } });
  await r.send({ method: 'PUT', url: CHECK(UNKNOWN_CHECK), headers: json({ ...AUTH, authorization: 'Bearer nope' }), payload: { frequencyOffset: 0 } });
  for (const q of ['autoAssignAlerts=true', 'autoAssignAlerts=false', 'autoAssignAlerts=maybe', 'autoAssignAlerts=1', 'unknown=1']) {
    await r.send({ method: 'PUT', url: `${CHECK()}?${q}`, headers: json(), payload: { name: `query ${q}` } });
    await r.send({ url: CHECK(), headers: { ...AUTH } });
  }
  for (const h of [AUTH2, { ...AUTH, authorization: 'Bearer nope' }]) {
    await r.send({ method: 'PUT', url: CHECK(), headers: json(h), payload: { name: 'by another' } });
    await r.send({ url: CHECK(), headers: { ...AUTH } });
  }
}

/** An update that changes nothing, two updates at once, and refused bodies that carry valid changes, each followed by reads. */
async function updateModelPart(r: Run) {
  const read = (id = SEEDED_API_CHECK_ID) => r.send({ url: CHECK(id), headers: { ...AUTH } });
  const put = (payload: Json, id = SEEDED_API_CHECK_ID) => r.send({ method: 'PUT', url: CHECK(id), headers: json(), payload });
  const before = (await read()).json;
  await put({ name: before?.name });
  await put({ frequency: before?.frequency, frequencyOffset: before?.frequencyOffset });
  await put({ frequencyOffset: '1' });
  await put({ frequencyOffset: [1] });
  await put({ frequencyOffset: true });
  await put({});
  await r.together([
    { method: 'PUT', url: CHECK(), headers: json(), payload: { name: 'at once' } },
    { method: 'PUT', url: CHECK(), headers: json(), payload: { tags: ['at-once'] } },
  ]);
  await wait(5);
  await read();
  for (const invalid of [{ groupOrder: 1.5 }, { locations: [] }, { frequencyOffset: 0 }, { checkType: 'SMTP' }, { frequency: 120, frequencyOffset: 50 }]) {
    await put({ ...carriers(Object.keys(invalid)), ...invalid });
    await read();
    // A refused body's parts must not come back with the next body that sends a part only, or after a read.
    await put({ frequencyOffset: 50 });
    await put({ activated: false });
    await wait(5);
    await read();
    await put({ frequency: 10, frequencyOffset: 1, activated: true, name: before?.name, tags: before?.tags });
  }
  // Values that read back: an astral character, a null that clears, the runtime moved down.
  for (const body of [{ name: 'probe 😀' }, { description: 'set' }, { description: null }, { runtimeId: '2026.04' }, { runtimeId: '2022.10' }]) {
    await put(body);
    await read();
  }
  await put({ frequency: 0, frequencyOffset: 10 }, SEEDED_BROWSER_CHECK_ID);
  await read(SEEDED_BROWSER_CHECK_ID);
}

/** Every cell of the check update's tables: the state it presumes set up, then its body (a refused one with carriers). */
async function cellPart(r: Run) {
  for (const [i, c] of updateProbes().entries()) {
    if (i % 100 === 99) r.freshWindow();
    const id = checkIdOf(c.check);
    if (c.given) await r.send({ method: 'PUT', url: CHECK(id), headers: json(), payload: c.given });
    const body = c.expect === 'valid' ? c.body : { ...carriers(Object.keys(c.body)), ...c.body };
    await r.send({ method: 'PUT', url: withQuery(CHECK(id), c.query), headers: json(), payload: body });
  }
  for (const id of [SEEDED_API_CHECK_ID, SEEDED_BROWSER_CHECK_ID]) await r.send({ url: CHECK(id), headers: { ...AUTH } });
}

/** The rate limit: a burst past the limit on each route, other keys and spellings after it, the window's end, and the route with its own limit. */
async function rateLimitPart(r: Run) {
  const windowMs = (r.setting.options.rateLimitWindowS ?? 60) * 1000;
  const n = Math.min(r.setting.options.rateLimitMax ?? 600, 12) + 2;
  const get = (url: string, h: Headers = AUTH) => r.send({ url, headers: { ...h } });
  const burst = async (url: string, count = n, h: Headers = AUTH) => {
    for (let i = 0; i < count; i++) {
      await get(url, h);
      r.clock.tick(100);
    }
  };
  r.clock.tick(windowMs + 1000);
  await burst(RUNTIME);
  await get(RUNTIME, AUTH2);
  await get(RUNTIME, { ...AUTH, authorization: `bearer ${DEMO_KEY}` });
  for (const url of ['/v1/runtimes/2024.09', `${RUNTIME}?x=1`, CHECK(), '/openapi.json']) await get(url);
  await r.send({ method: 'PUT', url: CHECK(), headers: json(), payload: { name: 'over the limit' } });
  // Past the window's end, then in the middle of the next one.
  r.clock.tick(windowMs);
  await burst(RUNTIME);
  r.clock.tick(windowMs / 2);
  await burst(RUNTIME, 3);
  r.clock.tick(windowMs + 1000);
  for (const url of [CHECK(), CHECK(SEEDED_BROWSER_CHECK_ID)]) await burst(url);
  r.clock.tick(windowMs + 1000);
  await burst('/v1/runtimes', 23);
  await burst('/v1/runtimes', 3, AUTH2);
  r.clock.tick(10_001);
  await burst('/v1/runtimes', 3);
  // Only refused requests, then served ones, in a fresh window.
  r.clock.tick(windowMs + 1000);
  await burst(RUNTIME, n, { ...AUTH, [ACCOUNT]: SECOND_ACCOUNT_ID });
  await burst(RUNTIME, 3);
}

/** What a socket reads back for the bytes written, the Date header left out (it changes every second). */
const rawExchange = (port: number, request: string) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', (e) => (text += ` (${(e as NodeJS.ErrnoException).code})`));
    socket.on('close', () => resolve(text.replace(/^date:.*\r\n/gim, '')));
  });

/** What the HTTP parser refuses never reaches inject: a request line and a header over every size limit, on a socket of the service's own. */
async function parserPart(r: Run) {
  await r.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = r.app.server.address() as AddressInfo;
  const over = 'f'.repeat(OVER_USUAL_LIMITS_CHARS);
  for (const head of [`GET ${RUNTIME}${over} HTTP/1.1\r\nhost: x\r\n\r\n`, `HEAD ${RUNTIME} HTTP/1.1\r\nhost: x\r\nx-over: ${over}\r\n\r\n`])
    r.note(await rawExchange(port, head));
}

/**
 * Cheap parts that show many faults first: a faulty run stops at its first difference, so the order
 * is by faults shown per request (measured), the rate limit last (its faults show under a small limit).
 */
const PARTS = [specPart, runtimePart, updateModelPart, authPart, cellPart, bodyShapePart, checkReadPart, methodPart, rateLimitPart, parserPart];
/**
 * The parts with one of them first (its index in PARTS): a fault of a kind that an earlier fault showed in that part meets it at
 * once (most faults bend one part only, which the default order may reach late); the clean answers are kept per order.
 */
const orderStarting = (first: number) => [PARTS[first], ...PARTS.filter((_, i) => i !== first)];
/** The part the check update's faults are first looked for in. */
export const UPDATE_PART = PARTS.indexOf(cellPart);

/**
 * The battery under one setting against a service with these faults. Without `clean`, every answer is
 * returned; with it, whether some answer differs from the clean one (the first that does ends the run).
 */
export const PART_NAMES = PARTS.map((p) => p.name);
export async function runBattery(
  faults: string[],
  setting: Setting,
  clean?: readonly string[],
  first = 0,
): Promise<{ answers: string[]; differs: boolean; marks: number[]; part?: number }> {
  const clock = fakeClock();
  const app = await service(faults, { ...setting.options, clock: clock.read });
  const run = new Run(app, clock, setting, clean);
  const order = orderStarting(first);
  try {
    for (const part of order) {
      run.marks.push(run.answers.length);
      run.freshWindow();
      await part(run);
    }
    return { answers: run.answers, differs: !!clean && run.answers.length !== clean.length, marks: run.marks };
  } catch (e) {
    // The part whose answer differed, by its index in PARTS.
    if (e instanceof Differs) return { answers: run.answers, differs: true, marks: run.marks, part: PARTS.indexOf(order[run.marks.length - 1]) };
    throw e;
  } finally {
    await app.close();
  }
}
