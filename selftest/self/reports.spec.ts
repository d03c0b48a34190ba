/**
 * The reports people read: no secret in any of them whatever fails, and the compare page opens on its
 * verdict and family matrix when rendered in a real browser (Debian's Chromium, no download).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { EMBEDDED } from '../../support/run/config';
import { runSuite } from '../../scripts/suite-runner';
import { reportDataFiles } from './html-report';
import { containsSecret, REDACTED } from '../../support/http/redact';
import { CHECK_UPDATE_GENERATED } from '../faults/generated/check-update';
import { RUNTIME_UNKNOWN_GENERATED } from '../faults/generated/runtime';
import { TEST_FILES } from '../../support/run/test-files';

const ROOT = join(__dirname, '../..');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** Every text under `dir`, with the HTML report's embedded zip unpacked. */
function allTexts(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      out.push(...allTexts(file));
      continue;
    }
    const text = readFileSync(file).toString('utf8');
    out.push([file, text]);
    for (const [inner, innerText] of Object.entries(reportDataFiles(text))) out.push([`${file}!${inner}`, innerText]);
  }
  return out;
}

test('no API key, account id or Authorization value reaches any report or the console, even when the target echoes the key', async () => {
  // auth-echo-key makes error bodies quote the key; the failures quote those bodies. A few tests that fail
  // so (each failed test costs a new worker): unknown and look-alike keys, the key in other schemes (the
  // Basic one's base64), an unknown id; and the key offered in query parameters, cookies and other headers.
  const grep = 'runtime: rejects (unknown and look-alike bearer keys|the key in another scheme|no Authorization header)|unknown id: a word';
  const run = await runSuite({ fault: 'auth-echo-key', args: [TEST_FILES.auth, TEST_FILES.runtime, '--grep', grep], keepReports: true });
  try {
    expect(run.exitCode).toBe(1);
    const texts = allTexts(run.reportDir);
    expect(texts.some(([f]) => f.includes('index.html!'))).toBe(true); // the HTML report's data was read
    expect(texts.length).toBeGreaterThan(5);
    // The echoed key did reach the reports, redacted: the check below is not vacuous.
    expect(texts.some(([, text]) => text.includes(REDACTED))).toBe(true);
    // Not only the secret as is: its base64 (a Basic header) and any run of 12 of its characters.
    for (const secret of [EMBEDDED.apiKey, EMBEDDED.accountId, EMBEDDED.secondApiKey, EMBEDDED.secondAccountId]) {
      expect(containsSecret(run.output, secret)).toBe(false);
      for (const [file, text] of texts) expect(containsSecret(text, secret), `part of ${secret.slice(0, 4)}… found in ${file}`).toBe(false);
    }
    for (const [file, text] of texts) expect(text, file).not.toMatch(/authorization["']?\s*[:=]\s*["']?Bearer mon_/i);
  } finally {
    rmSync(run.reportDir, { recursive: true, force: true });
  }
});

/**
 * A large difference set in both directions: A has one fault, B a dozen others. The page must still open
 * on the verdict and the family matrix, keep its details collapsed, and stay small. B's faults fail one
 * test each where they can (a cell of the update, one class of unknown runtime id, one authentication
 * probe), and a runtime body field (every version) for a body difference: a fault that breaks every
 * refusal (cu-500) fails twenty tests, and each failed test costs Playwright a new worker.
 */
const acceptedCell = (clause: string) => CHECK_UPDATE_GENERATED.find((f) => f.clause === clause && f.fault.startsWith('accept:API:'))!.fault;
const COMPARE_A = 'embedded:errbody:check-read:404:wording';
const foundUnknownId = RUNTIME_UNKNOWN_GENERATED.find((f) => f.fault.endsWith(':found'))!;
const COMPARE_B = `embedded:${['rt-node-no-v', foundUnknownId.fault, 'auth-skip:runtime:key', ...['CU-2', 'CU-3', 'CU-4', 'CU-5', 'CU-6', 'FO-2'].map(acceptedCell), 'rl-none', 'agent-no-health', 'fo-zero-any'].join(',')}`;
const MAX_PAGE_BYTES = 60_000;

/**
 * The compare run under way: a test that times out never reaches its finally, so afterEach ends it, the
 * whole process group: SIGINT first, on which each suite run stops the services it started (not on
 * SIGTERM), then SIGKILL for what is left.
 */
let running: ChildProcess | undefined;
test.afterEach(async () => {
  const child = running;
  running = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  /** Signals the group; false once no process of it is left. */
  const signal = (s: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, s);
      return true;
    } catch {
      return false;
    }
  };
  signal('SIGINT');
  for (let waited = 0; waited < 10_000 && signal(0); waited += 250) await new Promise((r) => setTimeout(r, 250));
  signal('SIGKILL');
});

test('compare mode opens on the verdict and the family matrix, details collapsed, for a large difference set', async () => {
  // Two whole suite runs side by side: minutes on a busy machine.
  test.setTimeout(480_000);
  const dir = mkdtempSync(join(tmpdir(), 'contract-compare-'));
  // Its own process group, so that a test that ends early takes both suite runs and their services with it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/compare.ts', COMPARE_A, COMPARE_B], {
    cwd: ROOT,
    env: { ...process.env, REPORT_DIR: dir, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  try {
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise((r) => child.once('close', r));
    expect(code, output).toBe(1);
    const verdict = /B differs from A on (\d+) clauses in (\d+) families\./.exec(output);
    expect(verdict, output).not.toBeNull();
    expect(Number(verdict![1])).toBeGreaterThanOrEqual(12);

    const md = readFileSync(join(dir, 'compare.md'), 'utf8');
    const html = readFileSync(join(dir, 'compare.html'), 'utf8');
    for (const secret of [EMBEDDED.apiKey, EMBEDDED.accountId, EMBEDDED.secondApiKey, EMBEDDED.secondAccountId]) {
      expect(containsSecret(md + html, secret)).toBe(false);
    }
    // The markdown opens like the page: the verdict, the family matrix, then the differing clauses by direction.
    expect(md.split('\n').slice(0, 3).join('\n')).toContain(`**${verdict![0]}**`);
    const order = [
      '| family | clauses | same | A only verified | B only verified | skipped on one side |',
      '## A verified, B failed',
      '## B verified, A failed',
      '## Skipped on one side',
      '## Details',
      '## All clauses',
    ];
    const at = order.map((x) => md.indexOf(x));
    expect(
      at.every((i) => i > 0),
      JSON.stringify(at),
    ).toBe(true);
    expect(at).toEqual([...at].sort((x, y) => x - y));
    // Both directions, each clause with its first difference in a few words.
    expect(md).toMatch(/\| RT-3 \| verified \| failed \| body: nodeJsVersion "v\d+\.\d+\.\d+" vs "\d+\.\d+\.\d+" \|/);
    expect(md).toMatch(/\| RT-9 \| verified \| failed \| status 404 vs 200 \|/);
    expect(md).toMatch(/\| AUTH-1 \| verified \| failed \| status 401 vs 200 \|/);
    expect(md).toMatch(/\| CU-3 \| verified \| failed \| status 400 vs 200 \|/);
    expect(md).toMatch(/\| ERR-1 \| failed \| verified \| error body: error "Not found" vs "Not Found" \|/);
    // A body is not listed field by field against a different status.
    expect(md).not.toMatch(/status 401 vs 200; body:/);
    expect(Buffer.byteLength(html), 'compare.html size').toBeLessThan(MAX_PAGE_BYTES);

    test.skip(!CHROMIUM, 'no Chromium installed (apt-get install chromium): the page is not rendered');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`file://${join(dir, 'compare.html')}`);
      // The first screen, without scrolling: the verdict and the whole family matrix.
      for (const part of [page.locator('.verdict'), page.locator('table.families')]) {
        await expect(part).toBeVisible();
        const box = (await part.boundingBox())!;
        expect(box.y + box.height, 'on the first screen').toBeLessThanOrEqual(800);
      }
      await expect(page.locator('.verdict')).toHaveText(verdict![0]);
      await expect(page.locator('table.families tbody tr')).toHaveCount(9); // eight families and the total
      await expect(page.locator('table.families tbody tr').first()).toContainText('SPEC');
      // Differences only by default; every detail collapsed until asked for.
      const details = page.locator('details');
      expect(await details.count()).toBeGreaterThan(10);
      expect(await page.locator('details[open]').count()).toBe(0);
      const rt3 = page.locator('details#d-RT-3');
      await expect(rt3.locator('table.requests')).toBeHidden();
      await rt3.locator('summary').click();
      await expect(rt3.locator('table.requests')).toBeVisible();
      await expect(rt3.locator('table.requests')).toContainText('nodeJsVersion');
      await expect(page.locator('table.clauses')).toBeHidden();
      await page.screenshot({ path: test.info().outputPath('compare.png') }); // kept with the test's results, for a person to look at
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
