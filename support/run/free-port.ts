import { execFileSync } from 'node:child_process';

/**
 * A free loopback port, found synchronously: playwright.config.ts must know the embedded service's
 * port while it is being evaluated, and config evaluation cannot await.
 */
export function freePortSync(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}
