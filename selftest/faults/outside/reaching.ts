/** A module's named records that do not say their reach are given its usual one: most of its faults change the same answers. */
export const reaching = <F extends object>(reach: string[], records: readonly F[]): F[] =>
  records.map((f) => ('name' in f && !('reach' in f) ? { ...f, reach } : f));
