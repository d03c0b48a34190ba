/**
 * Records the compare page test's two sides again (selftest/fixtures/compare-sides.json.gz): runs the suite
 * against both, as compare mode does, and keeps what each run gives the comparison. Run it when the
 * self-test says the recording is not current any more (a minute or two):
 *
 *   npx tsx selftest/self/record-compare.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runSides, sideTargets } from '../../scripts/compare-sides';
import { COMPARE_A, COMPARE_B, RECORDING, type Recording } from './compare-recording';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-compare-record-'));
  try {
    const [a, b] = await runSides(sideTargets(COMPARE_A, COMPARE_B), dir);
    const recording: Recording = { targets: [COMPARE_A, COMPARE_B], sides: [a, b] };
    writeFileSync(RECORDING, gzipSync(JSON.stringify(recording), { level: 9 }));
    process.stdout.write(`recorded: ${RECORDING} (A exit ${a.exitCode}, B exit ${b.exitCode})\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`record-compare: ${(e as Error).message}\n`);
  process.exit(1);
});
