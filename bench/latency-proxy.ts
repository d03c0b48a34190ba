/**
 * A TCP proxy on loopback that holds every chunk for half the round trip in each direction, so that a
 * target started here behaves like one `rttMs` away: each request waits a round trip for its answer, and
 * a new connection's first request one more (its first bytes cross once before the upstream accepts).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * Forwards `from`'s chunks to `to` after `delayMs`, in order (equal delays keep their order). However
 * `from` ends (an end, an error, a close), `to` is ended after the chunks already on their way: a server
 * that answers 413 and closes while the client still sends must reach the client with its answer, as
 * across a network, not as a connection cut before it.
 */
function delayed(from: Socket, to: Socket, delayMs: number): void {
  const ended = () => to.destroyed || to.writableEnded;
  from.on('data', (chunk) => setTimeout(() => ended() || to.write(chunk), delayMs));
  for (const event of ['end', 'error', 'close'] as const) from.on(event, () => setTimeout(() => ended() || to.end(), delayMs));
}

export async function startLatencyProxy(upstreamUrl: string, rttMs: number): Promise<LatencyProxy> {
  const upstream = new URL(upstreamUrl);
  const oneWay = rttMs / 2;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const target = connect(Number(upstream.port), upstream.hostname);
    for (const s of [client, target]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
    }
    delayed(client, target, oneWay);
    delayed(target, client, oneWay);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
