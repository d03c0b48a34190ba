/** Free loopback ports picked below every system's ephemeral range, so that no `listen(0)` of another server takes one before ours listens on it. */
import { createServer, type Server } from 'node:net';

const PORTS = { from: 20_000, to: 32_000 };

const listenOn = (s: Server, port: number) =>
  new Promise<boolean>((resolve) => {
    s.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
  });

/** `n` free loopback ports, all held until every one is known, so that no two are the same. */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  const span = PORTS.to - PORTS.from;
  const start = Math.floor(Math.random() * span);
  try {
    for (let i = 0; i < span && ports.length < n; i++) {
      const port = PORTS.from + ((start + i) % span);
      const s = createServer();
      if (await listenOn(s, port)) {
        servers.push(s);
        ports.push(port);
      }
    }
    if (ports.length < n) throw new Error(`only ${ports.length} of ${n} loopback ports free in ${PORTS.from}-${PORTS.to}`);
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

export const freePort = async (): Promise<number> => (await freePorts(1))[0];

/** Whether a loopback server could listen on `port` now (the agent's default port, say). */
export async function isPortFree(port: number): Promise<boolean> {
  const s = createServer();
  const free = await listenOn(s, port);
  if (free) await new Promise((resolve) => s.close(resolve));
  return free;
}
