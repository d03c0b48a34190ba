/** Where the rate-limit family checks what, so that a report can say "RL-3 at check-update, limited". */
export const BURST_PLACE = 'runtime';

export const RL_CLASSES = {
  /** The requests of a burst (RL-1, RL-2, RL-4, RL-6). */
  burst: 'burst',
  /** A request sent while the key is over its limit: the 429 and its body (RL-3, ERR-2..4). */
  limited: 'limited',
  /** An ordinary served request (RL-6 in the contract project). */
  served: 'served',
  /** A request after the window has passed (RL-5). */
  afterWindow: 'after the window',
} as const;
