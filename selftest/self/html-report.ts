/**
 * What Playwright's HTML report holds, read back: its data is a zip inside index.html (one JSON file
 * per test file, and report.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';

/** The embedded zip's files by name, as text; none when `html` holds no report data. */
export function reportDataFiles(html: string): Record<string, string> {
  const zip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(html);
  if (!zip) return {};
  return Object.fromEntries(Object.entries(unzipSync(Buffer.from(zip[1], 'base64'))).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

export interface TestTiming {
  file: string;
  title: string;
  /** Epoch ms. */
  start: number;
  end: number;
}

/** When each test of a run ran, from the report in `reportDir`/html. */
export function testTimings(reportDir: string): TestTiming[] {
  const files = reportDataFiles(readFileSync(join(reportDir, 'html', 'index.html'), 'utf8'));
  const out: TestTiming[] = [];
  for (const [name, text] of Object.entries(files)) {
    if (name === 'report.json') continue;
    const data = JSON.parse(text) as { tests: Array<{ title: string; location: { file: string }; results: Array<{ startTime: string; duration: number }> }> };
    for (const t of data.tests)
      for (const r of t.results) {
        const start = Date.parse(r.startTime);
        out.push({ file: t.location.file, title: t.title, start, end: start + r.duration });
      }
  }
  return out;
}
