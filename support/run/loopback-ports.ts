/** Free loopback ports picked outside the system's ephemeral range, so that no `listen(0)` of another server takes one before ours listens on it. */
import { createServer, type Server } from 'node:net';

type PortRange = { from: number; to: number };
const PORTS: PortRange = { from: 20_000, to: 32_000 };
/**
 * High port numbers, where a port a program is given meets a narrower type (a signed 16-bit one ends at
 * 32767) or a range it was never tried in (the dynamic ports, 49152 on): above Linux's ephemeral range
 * (to 60999) there; elsewhere (macOS, Windows: ephemeral from 49152) just under it, so that no outgoing
 * connection takes the port between our choice and the program's listen.
 */
export const HIGH_PORTS: PortRange = process.platform === 'linux' ? { from: 61_000, to: 65_536 } : { from: 32_768, to: 49_152 };

const listenOn = (s: Server, port: number) =>
  new Promise<boolean>((resolve) => {
    s.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
  });

/** `n` free loopback ports, all held until every one is known, so that no two are the same. */
export async function freePorts(n: number, range: PortRange = PORTS): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  const span = range.to - range.from;
  const start = Math.floor(Math.random() * span);
  try {
    for (let i = 0; i < span && ports.length < n; i++) {
      const port = range.from + ((start + i) % span);
      const s = createServer();
      if (await listenOn(s, port)) {
        servers.push(s);
        ports.push(port);
      }
    }
    if (ports.length < n) throw new Error(`only ${ports.length} of ${n} loopback ports free in ${range.from}-${range.to - 1}`);
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

export const freePort = async (range?: PortRange): Promise<number> => (await freePorts(1, range))[0];

/** Whether a loopback server could listen on `port` now (the agent's default port, say). */
export async function isPortFree(port: number): Promise<boolean> {
  const s = createServer();
  const free = await listenOn(s, port);
  if (free) await new Promise((resolve) => s.close(resolve));
  return free;
}
