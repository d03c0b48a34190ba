/** The verdict collects typed failures with where they happened; the failure formats itself once. */
import { expect, test, type TestInfo } from '@playwright/test';
import { ClauseFailure, failureLine, failureText, makeFailure } from '../../support/checks/failure';
import { Verdict } from '../../support/checks/verdict';
import { curlOf, type Exchange } from '../../support/http/exchange';

const info = () => ({ annotations: [] as Array<{ type: string; description?: string }> }) as unknown as TestInfo;

const exchange: Exchange = {
  method: 'PUT',
  url: 'http://127.0.0.1:3000/v1/checks/abc?autoAssignAlerts=false',
  requestHeaders: {
    authorization: 'Bearer sk_test_0123456789abcdef',
    'X-Service-Account': '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
    'content-type': 'application/json',
  },
  requestBody: `{"name":"it's"}`,
  status: 200,
  headers: {},
  text: '{}',
  json: {},
  contentType: 'application/json',
  ms: 3,
};

test('a failed check is kept as data, stamped with the place, class and subject of the view it went through', () => {
  const v = new Verdict(info(), false);
  const at = v.at({ place: 'check-update' }).at({ valueClass: 'upper-case', subject: 'locations ["US-EAST-1"]' });
  expect(at.check({ clause: 'CU-4', ok: false, title: 'an invalid request was not rejected', received: 200, allowed: 'a 4xx status', exchange })).toBe(false);
  expect(v.check({ clause: 'RT-1', ok: true, title: 'unused', received: 0, allowed: 'unused' })).toBe(true);
  expect(v.failures).toHaveLength(1);
  expect(v.failures[0]).toMatchObject({ clause: 'CU-4', place: 'check-update', valueClass: 'upper-case', subject: 'locations ["US-EAST-1"]', received: '200' });
  expect(v.failures[0].exchange).toEqual({ method: 'PUT', url: exchange.url, status: 200, contentType: 'application/json' });
  expect(v.tried).toEqual([{ clause: 'CU-4', place: 'check-update', valueClass: 'upper-case' }, { clause: 'RT-1' }]);
});

test('settle throws every failure at once, and fails a test that checked nothing', () => {
  const v = new Verdict(info(), false);
  expect(() => v.settle()).toThrow('this test checked nothing');
  v.fail({ clause: 'RT-3', title: 'nodeJsVersion is not v<major>.<minor>.<patch>', received: '24.1.0', allowed: 'v<major>.<minor>.<patch>' });
  v.fail({ clause: 'RT-2', title: 'name is not the requested id', received: '2024.9', allowed: '"2024.09"' });
  const error = (() => {
    try {
      v.settle();
    } catch (e) {
      return e as ClauseFailure;
    }
  })();
  expect(error).toBeInstanceOf(ClauseFailure);
  expect(error!.failures.map((f) => f.clause)).toEqual(['RT-3', 'RT-2']);
  expect(error!.message.split('\n')[0]).toBe('2 clause checks failed (RT-3, RT-2):');
});

test('spec drift is a warning, or a failure under STRICT_SPEC=on', () => {
  const finding = { clause: 'AUTH-1', title: 'status not declared by the spec', received: 401, allowed: '200, 404' } as const;
  const warning = 'GET /v1/runtimes/{id} answered 401; the spec declares 200, 404';
  const lenientInfo = info();
  const lenient = new Verdict(lenientInfo, false);
  lenient.drift(finding, warning);
  lenient.drift(finding, warning);
  expect(lenient.failures).toHaveLength(0);
  expect(lenientInfo.annotations).toEqual([{ type: 'spec-drift', description: warning }]);
  const strict = new Verdict(info(), true);
  strict.drift(finding, warning);
  expect(strict.failures[0]).toMatchObject({ clause: 'AUTH-1', received: '401', allowed: '200, 404' });
});

test('a failure reads as one sentence, received, allowed, the request and a command to send it again', () => {
  const text = failureText(
    makeFailure(
      { clause: 'CU-4', title: 'an invalid request was not rejected', received: 200, allowed: 'a 4xx status', exchange: exchange },
      { place: 'check-update', valueClass: 'look-alike' },
    ),
  );
  const lines = text.split('\n');
  expect(lines[0]).toBe('CU-4 [check-update · look-alike]: an invalid request was not rejected');
  expect(lines[1]).toBe('  received: 200');
  expect(lines[2]).toBe('  allowed:  a 4xx status');
  expect(lines[3]).toContain('PUT http://127.0.0.1:3000/v1/checks/abc');
  expect(lines[4]).toMatch(/^ {2}reproduce: curl /);
  expect(failureLine(makeFailure({ clause: 'RT-3', title: 'bad', received: 'x', allowed: 'y' }))).toBe('bad (received "x"; allowed y)');
});

test('the reproduce command names the secrets instead of showing them, and quotes what the shell would break', () => {
  const curl = curlOf(exchange, { API_KEY: 'sk_test_0123456789abcdef', ACCOUNT_ID: '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c' });
  expect(curl).toContain(`-X PUT 'http://127.0.0.1:3000/v1/checks/abc?autoAssignAlerts=false'`);
  expect(curl).toContain(`-H "authorization: Bearer $API_KEY"`);
  expect(curl).toContain(`-H "X-Service-Account: $ACCOUNT_ID"`);
  expect(curl).toContain(`--data-raw '{"name":"it'\\''s"}'`);
  expect(curl).not.toContain('sk_test_0123456789abcdef');
  // A key the suite does not know (a probe's made-up one) is not shown either.
  expect(curlOf({ ...exchange, requestHeaders: { authorization: 'Token made-up-key-123' } })).toContain(`'authorization: Token «redacted»'`);
});

test('a keyed finding is one failure of the test, and the one kept and the order do not depend on arrival', () => {
  const finding = (valueClass: string, clause: 'ERR-3' | 'AUTH-3' = 'ERR-3') =>
    [{ valueClass }, { clause, title: '401 answer whose body is not a JSON object', received: 'Unauthorized', allowed: 'JSON', key: 'runtime 401' }] as const;
  const record = (order: string[]) => {
    const v = new Verdict(info(), false);
    for (const c of order) v.at({ place: 'runtime', ...finding(c)[0] }).fail(finding(c)[1]);
    v.at({ place: 'runtime', valueClass: 'unknown-key' }).fail({
      clause: 'AUTH-3',
      title: 'an invalid request was not rejected',
      received: 200,
      allowed: 'a 4xx',
    });
    v.sortFindings();
    return v.failures.map((f) => `${f.clause} ${f.valueClass}`);
  };
  expect(record(['token-scheme', 'bare-key', 'no-authorization'])).toEqual(['AUTH-3 unknown-key', 'ERR-3 bare-key']);
  expect(record(['no-authorization', 'token-scheme', 'bare-key'])).toEqual(['AUTH-3 unknown-key', 'ERR-3 bare-key']);
});

test('a field is data beside the title: the text puts the subject and the field before the words, the record keeps them apart', () => {
  const f = makeFailure(
    { clause: 'RT-3', field: 'nodeJsVersion', title: 'is not v<major>.<minor>.<patch>', received: '22.14.0', allowed: 'v<major>.<minor>.<patch>' },
    { place: 'runtime', subject: 'runtime 2025.04' },
  );
  expect(f).toMatchObject({ field: 'nodeJsVersion', title: 'is not v<major>.<minor>.<patch>', received: '"22.14.0"', subject: 'runtime 2025.04' });
  expect(failureText(f).split('\n')[0]).toBe('RT-3 [runtime]: runtime 2025.04: nodeJsVersion is not v<major>.<minor>.<patch>');
});

test('at its end a test is annotated with each clause it failed without declaring it, once; its attachments carry the failures', () => {
  const i = info();
  Object.assign(i, { attachments: [] });
  i.annotations.push({ type: 'clause', description: 'RT-9' });
  const v = new Verdict(i, false);
  v.fail({ clause: 'AUTH-7', title: 'the 401 has no WWW-Authenticate', received: null, allowed: 'Bearer' });
  v.fail({ clause: 'AUTH-7', title: 'again', received: null, allowed: 'Bearer' });
  v.fail({ clause: 'RT-9', title: 'did not answer 404', received: 200, allowed: '404' });
  expect(() => v.finish('passed')).toThrow(ClauseFailure);
  expect(i.annotations.filter((a) => a.type === 'clause').map((a) => a.description)).toEqual(['RT-9', 'AUTH-7']);
  expect(i.attachments.map((a) => a.name)).toEqual(['failures', 'tried']);
});
