/**
 * One cause, one failure: a refusal's status is its probe's clause's (AUTH-*), its body ERR-3's and
 * ERR-4's, once per place and status. Every AUTH probe sent to a small server that refuses everything
 * with a 401 whose body is not JSON (the way Prism and many proxies answer).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { sendProbe, type AuthFixtures } from '../../support/auth/send';
import { AUTH_PROBES, probeApplies } from '../../support/auth/table';
import { requestsAt } from '../../support/auth/requests';
import { Verdict } from '../../support/checks/verdict';
import { contractAt } from '../../support/fixtures';
import { ApiClient } from '../../support/http/client';
import type { Config } from '../../support/run/config';
import { setRunDir } from '../../support/run/run-files';
import { SchemaValidator } from '../../support/spec/schema-validator';
import { buildSpec } from '../../support/spec/spec';
import { parseSpecText } from '../../support/spec/spec-source';
import { resolveTarget } from '../../support/spec/target';

const REFERENCE = join(__dirname, '../../specs/openapi.json');
const RUN_DIR = mkdtempSync(join(tmpdir(), 'refusal-bodies-'));

let server: Server;
let baseUrl: string;

test.beforeAll(async () => {
  // A 401 for everything, as text; a HEAD has no route (405).
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.method === 'HEAD' ? 405 : 401, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'Unauthorized');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((r) => server.close(r));
});

test('a refusal whose body is not JSON fails ERR-3 once per place and status, and no AUTH clause', async () => {
  setRunDir(RUN_DIR);
  const config = { baseUrl, apiKey: 'mon_unit_refusal_key_0123456789', accountId: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c' } as Config;
  const spec = await buildSpec(parseSpecText(readFileSync(REFERENCE, 'utf8'), REFERENCE), REFERENCE);
  const target = resolveTarget(spec, config);
  const validator = new SchemaValidator(spec);
  const verdict = new Verdict({ annotations: [] as TestInfo['annotations'] } as TestInfo, false);
  const api = new ApiClient(baseUrl, { apiKey: config.apiKey, accountId: config.accountId, accountHeader: target.accountHeader });
  const fx: AuthFixtures = { api, contract: contractAt(api, spec, validator, target, verdict), verdict, config, target, spec, validator };

  // Two places (the runtime operation and the collection beside it), every probe at each, side by side as the suite sends them.
  let sent = 0;
  for (const place of ['runtime', 'collection'] as const) {
    const resolved = await requestsAt(place, target, config, (p) => api.call('GET', p));
    if (!('requests' in resolved)) throw new Error(resolved.skip);
    for (const r of resolved.requests) {
      const probes = AUTH_PROBES.filter((p) => probeApplies(p, place));
      sent += probes.length;
      await Promise.all(probes.map((probe) => sendProbe(fx, place, r, probe)));
    }
  }
  expect(sent).toBeGreaterThan(40);

  // Each AUTH clause was tried and held: every probe was refused (a 4xx), the HEAD's 405 too.
  const failed = verdict.failures.map((f) => [f.clause, f.place, f.exchange?.status]);
  expect(failed.filter(([clause]) => String(clause).startsWith('AUTH-'))).toEqual([]);
  for (const clause of ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-5', 'AUTH-6']) expect(verdict.tried.map((t) => t.clause)).toContain(clause);
  // The body: one ERR-3 per place and status; statusCode has nothing to be read from (ERR-4 is not judged
  // on it). Beside it SPEC-9, as ever, once per operation and status: the spec declares a JSON 401.
  expect(failed.sort()).toEqual([
    ['ERR-3', 'GET /v1/runtimes', 401],
    ['ERR-3', 'runtime', 401],
    ['SPEC-9', 'GET /v1/runtimes', 401],
    ['SPEC-9', 'runtime', 401],
  ]);
  expect(verdict.failures.find((f) => f.clause === 'ERR-3')!.title).toMatch(/401 answer without a JSON content type nor a JSON object body/);
});
