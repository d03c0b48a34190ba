// The fixed demo credentials. The suite knows them as its defaults: do not change them.
export const DEMO_ACCOUNT_ID = '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c';
export const SECOND_ACCOUNT_ID = '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d';

/** API key -> the account it belongs to. */
export const API_KEYS: ReadonlyMap<string, string> = new Map([
  ['mon_demo_4f7c1e9a2b6d4e0f8a3c5b7d9e1f2a4c', DEMO_ACCOUNT_ID],
  ['mon_demo_second_0a1b2c3d4e5f60718293a4b5c6d7e8f9', SECOND_ACCOUNT_ID],
  // A second key of the demo account ("service API keys also exist"): the one the suite's rate-limit burst spends by default.
  ['mon_demo_burst_5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b', DEMO_ACCOUNT_ID],
]);

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The keys a service accepts, each with its account (lower case); `main` holds the seeded checks. */
export interface Accounts {
  keys: ReadonlyMap<string, string>;
  main: string;
}

export const DEMO_ACCOUNTS: Accounts = { keys: API_KEYS, main: DEMO_ACCOUNT_ID };
