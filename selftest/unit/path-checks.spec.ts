/**
 * Issue 34: each variable that names a path is checked before any test, one line each; and the spec is read with the tests' own
 * transport, so that a port fetch refuses ("bad port") is reached like any other.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { checkPaths, checkReportDir, specFilePath, unreadableFile } from '../../support/run/path-checks';
import { fetchSpecText } from '../../support/spec/spec-source';
import { SuiteError } from '../../support/run/suite-error';

const temp = () => mkdtempSync(join(tmpdir(), 'path-checks-'));

/** The configuration error `f` throws, as its one line. */
function configError(f: () => void): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SuiteError);
    expect((e as SuiteError).kind).toBe('config');
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('no error thrown');
}

test('REPORT_DIR: a missing folder is made, levels deep, and the write probe leaves nothing behind', () => {
  const dir = join(temp(), 'a', 'b', 'reports');
  checkReportDir(dir);
  expect(readdirSync(dir)).toEqual([]);
  checkReportDir(dir);
});

test('REPORT_DIR: a file, a folder under a file, a place even root cannot write, each one line', () => {
  const file = join(temp(), 'reports');
  writeFileSync(file, '');
  expect(configError(() => checkReportDir(file))).toBe(`REPORT_DIR ${file}: is a file, not a folder`);
  expect(configError(() => checkReportDir(join(file, 'sub')))).toBe(`REPORT_DIR ${file}/sub: cannot create the folder (ENOTDIR)`);
  // mkdirSync's `recursive` spins forever here (Node 20): this must return at once.
  if (existsSync('/proc'))
    expect(configError(() => checkReportDir('/proc/nope/deeper'))).toBe('REPORT_DIR /proc/nope/deeper: cannot create the folder (ENOENT)');
  if (existsSync('/sys/kernel'))
    expect(configError(() => checkReportDir('/sys/kernel'))).toMatch(/^REPORT_DIR \/sys\/kernel: cannot write in the folder \(E\w+\)$/);
});

test('SPEC_URL and WAIVERS_FILE: a file that cannot be read is named with what is wrong; an http(s) URL is no file', () => {
  const dir = temp();
  expect(unreadableFile(join(dir, 'missing.json'))).toBe('no such file');
  expect(unreadableFile(dir)).toBe('is a folder, not a file');
  writeFileSync(join(dir, 'spec.json'), '{}');
  expect(unreadableFile(join(dir, 'spec.json'))).toBeUndefined();
  expect(specFilePath('https://staging.example.com/openapi.json')).toBeUndefined();
  expect(specFilePath('file:///tmp/spec.json')).toBe('/tmp/spec.json');
  expect(specFilePath('specs/openapi.json')).toBe('specs/openapi.json');
  expect(configError(() => specFilePath('file://elsewhere/spec.json'))).toMatch(/^SPEC_URL file:\/\/elsewhere\/spec\.json: not a file: URL of this machine/);
});

test('the reads are checked before REPORT_DIR, so a bad SPEC_URL makes no folder', () => {
  const reportDir = join(temp(), 'reports');
  expect(configError(() => checkPaths({ specUrl: '/nonexistent.json', reportDir }))).toBe('SPEC_URL /nonexistent.json: no such file');
  expect(existsSync(reportDir)).toBe(false);
  // The embedded target's spec is served: no file to check while its port is not known.
  checkPaths({ specUrl: '', reportDir });
  expect(existsSync(reportDir)).toBe(true);
});

test('a SPEC_URL file gone after the check is still a configuration error, not an unreachable target', async () => {
  await expect(fetchSpecText('/nonexistent.json')).rejects.toMatchObject({ kind: 'config', message: 'SPEC_URL /nonexistent.json: no such file' });
});

/** A server on `port` (0: any), or undefined when the port is taken. */
async function serve(handler: RequestListener, port = 0): Promise<{ base: string; close: () => void } | undefined> {
  const server = createServer(handler);
  const listening = await new Promise<boolean>((resolve) => server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)));
  if (!listening) return undefined;
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

test('the spec is read from port 6000, one of the ports fetch refuses as a "bad port"', async () => {
  const s = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.0.3"}'), 6000);
  test.skip(!s, 'port 6000 is taken on this machine');
  try {
    expect(await fetchSpecText(`${s!.base}/openapi.json`)).toBe('{"openapi":"3.0.3"}');
  } finally {
    s!.close();
  }
});

test('a redirect is followed, and a spec behind credentials gets them on a second try', async () => {
  const s = (await serve((req, res) => {
    if (req.url === '/openapi.json') return res.writeHead(301, { location: '/v1/openapi.json' }).end();
    if (req.headers.authorization !== 'Bearer k') return res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0"}');
  }))!;
  try {
    expect(await fetchSpecText(`${s.base}/openapi.json`, { authorization: 'Bearer k' })).toBe('{"openapi":"3.1.0"}');
    await expect(fetchSpecText(`${s.base}/openapi.json`)).rejects.toMatchObject({ kind: 'no-spec' });
  } finally {
    s.close();
  }
});
