// In-memory checks of each account, seeded with one API and one browser check of the demo account.
import { DEMO_ACCOUNT_ID } from '../accounts';

export const SEEDED_API_CHECK_ID = '0b8f5c2e-6d1a-4e3b-9f7c-2a4d6e8f0a1b';
export const SEEDED_BROWSER_CHECK_ID = '1c9e6d3f-7e2b-4f4c-8a8d-3b5e7f9a1b2c';

export type Check = Record<string, unknown> & { id: string; checkType: string; frequency: number; frequencyOffset: number };

const CREATED = '2026-03-02T09:15:00.000Z';

/** A check as created: the given id, name and type, every other property at its default. */
export function newCheck(id: string, name: string, checkType: string): Check {
  return {
    id,
    name,
    checkType,
    activated: true,
    muted: false,
    doubleCheck: false,
    shouldFail: false,
    useGlobalAlertSettings: true,
    runParallel: false,
    locations: ['eu-central-1', 'us-east-1'],
    tags: ['demo', 'contract-tests'],
    alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
    groupId: null,
    groupOrder: null,
    runtimeId: '2025.04',
    alertChannelSubscriptions: [],
    retryStrategy: { type: 'FIXED', baseBackoffSeconds: 60, maxRetries: 2, maxDurationSeconds: 600, sameRegion: true },
    triggerIncident: null,
    description: null,
    frequency: 10,
    frequencyOffset: 1,
    scriptPath: null,
    environmentVariables: [],
    setupSnippetId: null,
    tearDownSnippetId: null,
    localSetupScript: null,
    localTearDownScript: null,
    privateLocations: null,
    dependencies: null,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

export function seedChecks(): Check[] {
  const api = newCheck(SEEDED_API_CHECK_ID, 'Public API health (GET /v1/status)', 'API');
  const browser = newCheck(SEEDED_BROWSER_CHECK_ID, 'Checkout flow (browser)', 'BROWSER');
  browser.scriptPath = 'checks/checkout.spec.ts';
  return [api, browser];
}

export class CheckStore {
  private readonly byAccount = new Map<string, Map<string, Check>>();
  constructor(seed: Check[] = seedChecks(), account = DEMO_ACCOUNT_ID) {
    this.byAccount.set(account, new Map(seed.map((c) => [c.id, c])));
  }
  get(account: string, id: string): Check | undefined {
    const c = this.byAccount.get(account)?.get(id);
    return c && structuredClone(c);
  }
  /** The account that holds a check, looked up by its id alone. */
  ownerOf(id: string): string | undefined {
    return [...this.byAccount].find(([, checks]) => checks.has(id))?.[0];
  }
  put(account: string, check: Check): void {
    this.byAccount.get(account)?.set(check.id, structuredClone(check));
  }
}
