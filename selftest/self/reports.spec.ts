/**
 * The reports people read: no secret in any of them whatever fails, and the compare page shows the
 * table and the differences when rendered in a real browser (Debian's Chromium, no download).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import { EMBEDDED } from '../../support/run/config';
import { runSuite } from '../../support/run/suite-runner';
import { containsSecret } from '../../support/http/redact';

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
    const zip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(text);
    if (zip) for (const [inner, bytes] of Object.entries(unzipSync(Buffer.from(zip[1], 'base64')))) out.push([`${file}!${inner}`, strFromU8(bytes)]);
  }
  return out;
}

test('no API key, account id or Authorization value reaches any report or the console, even when the target echoes the key', async () => {
  // auth-echo-key makes error bodies quote the key; the failures quote those bodies.
  const run = await runSuite({ fault: 'auth-echo-key', args: ['tests/auth.spec.ts', 'tests/runtime.spec.ts'], keepReports: true });
  try {
    expect(run.exitCode).toBe(1);
    const texts = allTexts(run.reportDir);
    expect(texts.some(([f]) => f.includes('index.html!'))).toBe(true); // the HTML report's data was read
    expect(texts.length).toBeGreaterThan(5);
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

test('compare mode shows what differs between the reference service with and without a fault', async () => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'contract-compare-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/compare.ts', 'embedded', 'embedded:rt-node-no-v'], { cwd: ROOT, env: { ...process.env, REPORT_DIR: dir, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise((r) => child.once('close', r));
    expect(code, output).toBe(1);
    expect(output).toContain('1 clause(s) differ: RT-3');
    const md = readFileSync(join(dir, 'compare.md'), 'utf8');
    expect(md).toContain('| **RT-3** |');
    expect(md).toMatch(/body \$\.nodeJsVersion \| `string = "v\d+\.\d+\.\d+"` \| `string = "\d+\.\d+\.\d+"`/);

    test.skip(!CHROMIUM, 'no Chromium installed (apt-get install chromium): the page is not rendered');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(`file://${join(dir, 'compare.html')}`);
      await expect(page.locator('table.clauses tbody tr')).toHaveCount(53);
      await expect(page.locator('tr.differs')).toHaveCount(1);
      await expect(page.locator('tr.differs td.id')).toHaveText('RT-3');
      await expect(page.locator('section#RT-3 table.differences tbody tr').first()).toContainText('nodeJsVersion');
      await expect(page.locator('header')).toContainText('1 of 53 clauses differ');
      await page.screenshot({ path: test.info().outputPath('compare.png') }); // kept with the test's results, for a person to look at
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
