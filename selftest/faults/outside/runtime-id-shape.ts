// The shape of a runtime id nobody serves, as a router, a validator or a cache key would meet it (the
// rt-unknown faults bend the answer for the ids of one shape; the service has no use for it): an id
// of the right form for a month with no runtime, one that looks like a runtime's, one of another form,
// one sent percent-encoded, a long one, one with characters outside ASCII. Decided on the raw path
// segment (as sent) and on the decoded id.

export const RUNTIME_ID_SHAPES = ['never-existed', 'look-alike', 'malformed', 'encoded', 'long', 'non-ascii'] as const;
export type RuntimeIdShape = (typeof RUNTIME_ID_SHAPES)[number];

const LONG = 1000;

export function idShape(rawSegment: string, id: string): RuntimeIdShape {
  if ([...id].some((ch) => ch.charCodeAt(0) > 0x7f)) return 'non-ascii';
  if (id.length > LONG) return 'long';
  if (rawSegment.includes('%')) return 'encoded';
  const yearMonth = /^\d{4}\.(\d{2})$/.exec(id);
  if (yearMonth) return Number(yearMonth[1]) >= 1 && Number(yearMonth[1]) <= 12 ? 'never-existed' : 'malformed';
  if (/^\d{4}[.-]\d/.test(id)) return 'look-alike';
  return 'malformed';
}

/** The last segment of the request's path, as sent. */
export const rawLastSegment = (url: string) => url.split('?')[0].split('/').pop() ?? '';
