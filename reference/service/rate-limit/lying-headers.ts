// The rl-headers faults: the limit headers the plugin set (x-ratelimit-limit / -remaining / -reset,
// retry-after on a 429) rewritten into a lie, each relative to the truth it replaces.
import type { FastifyReply } from 'fastify';
import type { HeaderMutation } from '../../fault-kinds';

export function lieInHeaders(reply: FastifyReply, lies: readonly HeaderMutation[]): void {
  const read = (name: string) => {
    const v = reply.getHeader(name);
    return v === undefined ? undefined : Number(v);
  };
  const truth = {
    limit: read('x-ratelimit-limit'),
    remaining: read('x-ratelimit-remaining'),
    reset: read('x-ratelimit-reset'),
    retry: read('retry-after'),
  };
  const set = (name: string, value: number | undefined) => {
    if (value !== undefined && !Number.isNaN(value)) reply.header(name, String(value));
  };
  for (const lie of lies) {
    if (lie === 'remaining-stuck') set('x-ratelimit-remaining', truth.limit);
    if (lie === 'remaining-off' && truth.remaining !== undefined) set('x-ratelimit-remaining', truth.remaining + 1);
    if (lie === 'limit-wrong' && truth.limit !== undefined) set('x-ratelimit-limit', truth.limit + 100);
    if (lie === 'reset-ms' && truth.reset !== undefined) set('x-ratelimit-reset', truth.reset * 1000);
    if (lie === 'retry-after-zero' && truth.retry !== undefined) set('retry-after', 0);
    if (lie === 'retry-after-long' && truth.retry !== undefined) set('retry-after', truth.retry * 10);
    // An end announced before the real one: a client that heeds it is refused again.
    if (lie === 'retry-after-short' && truth.retry !== undefined) set('retry-after', Math.floor(truth.retry / 4));
  }
}
