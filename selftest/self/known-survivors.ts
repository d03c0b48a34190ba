/**
 * Faults known to survive, each with the reason it is accepted: a survivor listed here is reported but
 * does not fail `npm test`. Empty by default; an entry is a decision, so it says why.
 */
export const KNOWN_SURVIVORS: ReadonlyArray<{ fault: string; reason: string }> = [];

export const knownReason = (fault: string) => KNOWN_SURVIVORS.find((k) => k.fault === fault)?.reason;
