/**
 * The suite as a user meets it: bad configuration and an unreachable target stop the run with one line
 * and their own exit code; a target that answers without a spec is a contract failure, reported; another deployment (own header name, other limiter, the real published spec)
 * is tested through BASE_URL exactly like the embedded one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { EMBEDDED, EMBEDDED_PORT_VARIABLE } from '../../support/run/config';
import { freePort } from '../../support/run/loopback-ports';
import { failedClauses, failureLines, runSuite, type SuiteRun } from '../../scripts/suite-runner';
import { TEST_FILES } from '../../support/run/test-files';
import { REPORT_FILES } from '../../support/run/report-files';
import { BURST_TARGET_LIMIT } from './fault-run/window';

const ROOT = join(__dirname, '../..');
const PUBLISHED = join(ROOT, 'selftest/fixtures/published-openapi-2026-08-18.json');

async function startReference(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['support/run/embedded.mjs', 'reference/service/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), MOCK_FAULT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`reference exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const remote = (url: string) => ({ BASE_URL: url, API_KEY: EMBEDDED.apiKey, ACCOUNT_ID: EMBEDDED.accountId });

test('a malformed BASE_URL stops the run before any test, with one line and exit code 3', async () => {
  const run = await runSuite({ env: { BASE_URL: 'staging.example.com', API_KEY: 'x_12345678', ACCOUNT_ID: EMBEDDED.accountId } });
  expect(run.exitCode).toBe(3);
  expect(run.output.trim()).toBe('configuration error: BASE_URL must be an http(s) URL, e.g. https://staging.example.com (got "staging.example.com")');
});

test('an ACCOUNT_ID that is not a GUID is named, and not shown', async () => {
  const run = await runSuite({ env: { BASE_URL: 'http://127.0.0.1:9', API_KEY: 'x_12345678', ACCOUNT_ID: 'my-account' } });
  expect(run.exitCode).toBe(3);
  expect(run.output).toMatch(/^configuration error: ACCOUNT_ID must be a GUID/);
  expect(run.output).not.toContain('my-account');
});

/** How long Playwright takes now merely to start (`--version`): a loaded machine (the self-test's other runs, other jobs) slows every child alike. */
async function bareStartMs(): Promise<number> {
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), '--version'], { cwd: ROOT, stdio: 'ignore' });
  await new Promise((resolve) => child.once('close', resolve));
  return Date.now() - started;
}

// Each path variable's check and its line are unit-tested (selftest/unit/path-checks.spec.ts): one of them here, as a user meets it.
test('issue 34: REPORT_DIR as a file stops the run before any test, within seconds, with one line naming the variable and exit code 3', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-cli-'));
  try {
    writeFileSync(join(dir, 'reports'), '');
    const bare = await bareStartMs();
    const run = await runSuite({ env: { REPORT_DIR: join(dir, 'reports') }, timeoutMs: 30_000 });
    expect(run.exitCode, run.output.slice(-2000)).toBe(3);
    expect(run.output.trim().split('\n')).toEqual([expect.stringMatching(/^configuration error: REPORT_DIR \S+: is a file, not a folder$/)]);
    // About 2 s on a quiet machine, some 1.3 times a bare start on a loaded one; a hang is killed at 30 s.
    expect(run.ms, `a bare start took ${bare} ms`).toBeLessThan(Math.max(5_000, 4 * bare));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("issue 34: a run that stops for configuration leaves the last run's reports as they were", async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'contract-cli-'));
  const last = JSON.stringify({ runStatus: 'passed', clauses: [] });
  writeFileSync(join(reportDir, 'contract-matrix.json'), last);
  try {
    const run = await runSuite({ reportDir, env: { SPEC_URL: '/nonexistent.json' }, timeoutMs: 30_000 });
    expect(run.exitCode).toBe(3);
    expect(readFileSync(join(reportDir, 'contract-matrix.json'), 'utf8')).toBe(last);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('issue 34: a target on port 6000, which fetch refuses ("bad port") though servers use it, is reached: the run goes past reachability', async () => {
  // A stub that serves no spec: SPEC-1 fails (exit 1) on a 404 it received, which only a target that was reached can give.
  const stub = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404,"error":"Not Found"}'));
  const listening = await new Promise<boolean>((resolve) => stub.once('error', () => resolve(false)).listen(6000, '127.0.0.1', () => resolve(true)));
  test.skip(!listening, 'port 6000 is taken on this machine');
  try {
    const run = await runSuite({ env: remote('http://127.0.0.1:6000'), args: [TEST_FILES.spec], workers: 1, timeoutMs: 60_000 });
    expect(run.output).not.toContain('unreachable');
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    expect(failureLines(run).join('\n')).toContain('SPEC-1: GET /openapi.json did not answer 200 (received: 404)');
  } finally {
    stub.close();
  }
});

test('an unreachable target fails the run within 10 seconds with one clear line and exit code 4', async () => {
  // Not a free port picked now: another process of the self-test (a fault run starts dozens of services)
  // may listen on it a second later. Nothing of ours listens on port 2 (privileged, long unassigned, and
  // not one of the ports fetch refuses outright, as it does 1).
  const port = 2;
  const bare = await bareStartMs();
  const run = await runSuite({ env: { ...remote(`http://127.0.0.1:${port}`) } });
  expect(run.exitCode).toBe(4);
  expect(run.output).toContain(`contract suite: the target is unreachable: GET http://127.0.0.1:${port}/openapi.json failed (ECONNREFUSED)`);
  expect(run.output).not.toMatch(/\n\s+at /); // no stack trace
  // 10 s on a quiet machine; on a loaded one, what a bare start takes there bounds it (see bareStartMs).
  expect(run.ms, `a bare start took ${bare} ms`).toBeLessThan(Math.max(10_000, 4 * bare));
});

test('an embedded service that cannot start (its port taken) stops the run with one line and exit code 4', async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as { port: number }).port;
  try {
    const run = await runSuite({ env: { [EMBEDDED_PORT_VARIABLE]: String(port) } });
    expect(run.exitCode, run.output.slice(-2000)).toBe(4);
    expect(run.output).toContain('contract suite: the embedded reference service did not start: it exited (code 1)');
    expect(run.output).not.toMatch(/\n\s+at /); // no stack trace
  } finally {
    taken.close();
  }
});

test('a target whose spec answers 404 fails SPEC-1 (exit code 1), every other clause not run for that reason, the reports written', async () => {
  const run = await runSuite({ fault: 'spec-missing', keepReports: true });
  try {
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    expect(failedClauses(run)).toEqual(['SPEC-1']);
    expect(failureLines(run).join('\n')).toContain('SPEC-1: GET /openapi.json did not answer 200 (received: 404)');
    for (const c of run.matrix!.clauses.filter((x) => x.id !== 'SPEC-1')) {
      expect(c.status, c.id).toBe('skipped');
      expect(c.reasons, c.id).toEqual(['the target serves no spec (SPEC-1 failed): not run']);
    }
    expect(existsSync(join(run.reportDir, 'html/index.html'))).toBe(true);
    expect(existsSync(join(run.reportDir, 'junit.xml'))).toBe(true);
  } finally {
    rmSync(run.reportDir, { recursive: true, force: true });
  }
});

test('--grep @RT-3 runs the tests of RT-3 only; the matrix says the run was partial and marks the other clauses not tried in this run; the last whole run is kept', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'contract-partial-'));
  // The reports of an earlier whole run in the folder: the partial run keeps them in last-whole-run/.
  const whole = '{"runStatus":"passed","clauses":[],"summary":{"verified":53}}';
  writeFileSync(join(reportDir, REPORT_FILES.matrixJson), whole);
  writeFileSync(join(reportDir, REPORT_FILES.junit), '<testsuites/>');
  const run = await runSuite({ args: ['--grep', '@RT-3'], reportDir });
  expect(readFileSync(join(reportDir, 'last-whole-run', REPORT_FILES.matrixJson), 'utf8')).toBe(whole);
  expect(readFileSync(join(reportDir, 'last-whole-run', REPORT_FILES.junit), 'utf8')).toBe('<testsuites/>');
  rmSync(reportDir, { recursive: true, force: true });
  expect(run.exitCode, run.output.slice(-2000)).toBe(0);
  expect(run.matrix!.partial).toBe('--grep @RT-3');
  const row = (id: string) => run.matrix!.clauses.find((c) => c.id === id)!;
  expect(row('RT-3').status).toBe('verified');
  expect(row('RT-3').tests.every((t) => t.title.includes('read at once'))).toBe(true);
  expect(row('CU-1').status).toBe('not tried in this run');
  expect(run.matrix!.clauses.some((c) => c.status === 'not covered')).toBe(false);
  expect(run.output).toContain('partial run (--grep @RT-3)');
});

test('--list writes nothing: an earlier matrix stays as it was', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'contract-list-'));
  try {
    writeFileSync(join(reportDir, REPORT_FILES.matrixJson), '{"earlier":true}');
    const run = await runSuite({ args: ['--list'], reportDir });
    expect(run.exitCode, run.output.slice(-2000)).toBe(0);
    expect(run.output).toContain('Total: ');
    expect(readFileSync(join(reportDir, REPORT_FILES.matrixJson), 'utf8')).toBe('{"earlier":true}');
    expect(readdirSync(reportDir)).toEqual([REPORT_FILES.matrixJson]);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('--reporter=dot replaces the console only: the matrix, junit.xml and the clauses line are still written', async () => {
  const run = await runSuite({ args: ['--reporter=dot', '--grep', '@spec(?!-)'], keepReports: true });
  try {
    expect(run.exitCode, run.output.slice(-2000)).toBe(0);
    expect(run.matrix!.clauses.find((c) => c.id === 'SPEC-2')!.status).toBe('verified');
    expect(existsSync(join(run.reportDir, REPORT_FILES.junit))).toBe(true);
    expect(run.output).toMatch(/\nclauses: \d+ verified/);
  } finally {
    rmSync(run.reportDir, { recursive: true, force: true });
  }
});

test('a selection of no test says so in one line and exits 3, not 1, leaving the reports as they were', async () => {
  const run = await runSuite({ args: ['--grep', '@RT-99'] });
  expect(run.exitCode, run.output).toBe(3);
  expect(run.output.trim()).toBe('no test matches this selection (--grep @RT-99): nothing ran, no report written');
  expect(run.matrix).toBeUndefined();
});

/**
 * A proxy that serves the reference under /api, with a spec whose servers entry names that prefix. The bytes are piped as they come
 * (a fetch that decodes and buffers every answer cost the self-test a second of CPU in this run); the spec is asked uncompressed, to edit.
 */
async function prefixProxy(upstream: string): Promise<{ url: string; close: () => void }> {
  const up = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/api/')) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404,"error":"Not Found"}');
    const isSpec = req.url === '/api/openapi.json';
    const { 'accept-encoding': acceptEncoding, ...headers } = req.headers;
    const forward = httpRequest(
      {
        agent,
        host: up.hostname,
        port: up.port,
        method: req.method,
        path: req.url.slice(4),
        headers: { ...headers, ...(!isSpec && acceptEncoding && { 'accept-encoding': acceptEncoding }), host: up.host },
      },
      async (answer) => {
        if (!isSpec) return answer.pipe(res.writeHead(answer.statusCode!, answer.headers));
        const chunks: Buffer[] = [];
        for await (const c of answer) chunks.push(c as Buffer);
        const body = JSON.stringify({ ...JSON.parse(Buffer.concat(chunks).toString()), servers: [{ url: 'https://api.example.com/api' }] });
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...kept } = answer.headers;
        res.writeHead(answer.statusCode!, kept).end(body);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.close();
      agent.destroy();
    },
  };
}

/** Why a test of a remote target skipped: a variable it was not given, or the recovery that waits a window. */
const expectSkipsNamed = (run: SuiteRun, named: RegExp) => {
  for (const reason of run.matrix!.clauses.filter((c) => c.status === 'skipped').flatMap((c) => c.reasons)) expect(reason).toMatch(named);
};

test("another deployment passes: its own account header name, a sliding window, behind a path prefix its spec's servers entry declares (sent once), reached through BASE_URL", async () => {
  const ref = await startReference({ REF_ACCOUNT_HEADER: 'X-Acme-Account', RATE_LIMIT_ALGORITHM: 'sliding' });
  const proxy = await prefixProxy(ref.url);
  try {
    const run = await runSuite({ env: { ...remote(`${proxy.url}/api`), CHECK_ID: EMBEDDED.checkId, BROWSER_CHECK_ID: EMBEDDED.browserCheckId } });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expectSkipsNamed(run, /SECOND_|AGENT_|@slow/);
  } finally {
    proxy.close();
    ref.child.kill();
  }
});

test('the real published spec is read as it is: SPEC-1 fails on its dangling references, the rest is tested', async () => {
  test.skip(!existsSync(PUBLISHED), 'the shared published spec is not beside the project');
  const ref = await startReference({ REF_ACCOUNT_HEADER: 'x-checkly-account' });
  try {
    const run = await runSuite({ env: { ...remote(ref.url), SPEC_URL: PUBLISHED, BURST: 'off' } });
    expect(failedClauses(run), failureLines(run).join('\n')).toEqual(['SPEC-1']);
    expect(
      run
        .matrix!.clauses.find((c) => c.id === 'SPEC-1')!
        .failures.map((f) => f.title)
        .join(' '),
    ).toContain('ChecksV1DnsRequestPatch');
    // The published spec does not declare 401 on the runtime operation: drift, a warning only.
    expect(run.matrix!.drift.join('\n')).toMatch(/GET \/v1\/runtimes\/\{id\} answered 401/);
    // Without CHECK_ID a remote target's checks are never touched: those tests skip and say why.
    expectSkipsNamed(run, /CHECK_ID|SECOND_|AGENT_|BURST=off/);
    expect(run.matrix!.clauses.find((c) => c.id === 'CU-1')!.reasons.join(' ')).toMatch(/CHECK_ID/);
  } finally {
    ref.child.kill();
  }
});

test('issue 23: a service whose route with a limit of its own reports the global limit in its headers (RATE_LIMIT_HEADERS=global) passes RL-6', async () => {
  // The burst's smaller limit (fault-run/window.ts): what the route's headers report is the same at any global limit.
  const run = await runSuite({ env: { RATE_LIMIT_HEADERS: 'global', ...BURST_TARGET_LIMIT }, args: [TEST_FILES.rateLimit, TEST_FILES.burst] });
  expect(run.exitCode, failureLines(run).join('\n') || run.output.slice(-3000)).toBe(0);
  expect(failedClauses(run)).toEqual([]);
  const rl6 = run.matrix!.clauses.find((c) => c.id === 'RL-6')!;
  // Judged on the route's own burst (its 429s with global room left are notes) and on the global one.
  expect(rl6.status).toBe('verified');
  expect(rl6.places).toEqual(expect.arrayContaining(['GET /v1/runtimes', 'runtime']));
  expect(run.matrix!.clauses.find((c) => c.id === 'RL-4')!.status).toBe('verified');
});
