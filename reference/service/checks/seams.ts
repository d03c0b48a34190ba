// The seams of this part of the service: its rules as data and functions, read where they apply, so a
// plugin from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered.
// The update's steps, in the order the route takes them: whose check the id names, the check it names
// (or the answer to an id the account has not got), the problems of the update (the schema's, then the
// frequencyOffset rules on the check as it will be), what a refused update leaves (nothing), and the
// check as merged and stored.
import { apiError } from '../errors/catalogue';
import { checkUpdateSchema } from './schema';
import { maxOffset, offsetProblem } from './frequency-offset';
import { CheckStore, type Check } from './store';
import { UPDATE_PROPERTIES } from './vocabulary';

/** The two routes of a check: its read and its (deprecated) update. */
export type CheckPlace = 'check-read' | 'check-update';

/** What the validation of the request found wrong, and where: the body or the query. */
export interface Invalid {
  in: 'body' | 'querystring';
  message: string;
  /** ajv's errors, each naming the property it is about. */
  errors: ReadonlyArray<{ instancePath?: string }>;
}

/** An update as received: whose check it is, the check as stored, and the body as sent. */
export interface Update {
  account: string;
  check: Check;
  /** As sent: a JSON object when the schema passed it, anything otherwise. */
  body: unknown;
  /** Set when the schema refused the body or the query. */
  invalid?: Invalid;
}

/** What the frequencyOffset rules judge: the frequency, offset and type the check will have after the update. */
export interface Schedule {
  frequency: number;
  offset: number;
  checkType: string;
}

export interface CheckSeams {
  /**
   * The checks of every account. buildService puts the configured store here before the service's
   * plugins are registered, so read it when a request is answered, not when a plugin is applied.
   */
  store: CheckStore;
  /** CU-2..6, FO-4: the JSON schema of the update body (read once, when the route is registered). */
  bodySchema(): Record<string, unknown>;
  /** FO-2, FO-3: the largest offset a frequency above 0 allows. */
  maxOffset(frequency: number): number;
  /** FO-1..3, FO-5: what is wrong with this frequency, offset and type together (null: nothing). */
  offsetProblem(frequency: number, offset: number, checkType: string): string | null;
  /** CU-8: the account whose check a request's id names: the requester's own (null: no account). */
  holder(account: string | null, id: string, place: CheckPlace): string | null;
  /** CU-8: the answer to an id the account has not got: 404. */
  unknownId(id: string, place: CheckPlace): Check;
  /** The check an id names for an account, or the answer to one it has not got. */
  read(account: string | null, id: string, place: CheckPlace): Check;
  /** FO-1..3, FO-5: the schedule the check will have: each of the three as sent, else as stored. */
  schedule(update: Update): Schedule;
  /** CU-1..7, FO-1..5: why an update is refused: the schema's problem, else the frequencyOffset rules' (none: it is applied). */
  problems(update: Update): string[];
  /** CU-7: a refused update is all or nothing: the check is left as it was. */
  discard(update: Update): void | Promise<void>;
  /** CU-1: the check after the update: each property sent replaces the stored one, the rest kept. */
  merge(update: Update): Check;
  /** CU-1: the updated check stored, as answered. */
  save(update: Update, updated: Check): void | Promise<void>;
}

/** The sent value of each update property the body holds. */
export const sentProperties = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(UPDATE_PROPERTIES.filter((k) => Object.hasOwn(body, k)).map((k) => [k, body[k]]));

export const checkSeams = (): CheckSeams => {
  const seams: CheckSeams = {
    store: new CheckStore(),
    bodySchema: checkUpdateSchema,
    maxOffset,
    offsetProblem: (frequency, offset, checkType) => offsetProblem(frequency, offset, checkType, seams.maxOffset),
    holder: (account) => account,
    unknownId: () => {
      throw apiError('CHECK_NOT_FOUND');
    },
    read: (account, id, place) => (account ? seams.store.get(account, id) : undefined) ?? seams.unknownId(id, place),
    schedule: ({ check, body }) => {
      const sent = body as Partial<Record<'frequency' | 'frequencyOffset' | 'checkType', unknown>>;
      return {
        frequency: (sent.frequency as number | undefined) ?? check.frequency,
        offset: (sent.frequencyOffset as number | undefined) ?? check.frequencyOffset,
        checkType: (sent.checkType as string | undefined) ?? check.checkType,
      };
    },
    problems: (update) => {
      if (update.invalid) return [update.invalid.message];
      const { frequency, offset, checkType } = seams.schedule(update);
      const problem = seams.offsetProblem(frequency, offset, checkType);
      return problem ? [problem] : [];
    },
    discard: () => {},
    merge: ({ check, body }) => ({ ...check, ...sentProperties(body as Record<string, unknown>), updated_at: new Date().toISOString() }),
    save: ({ account }, updated) => seams.store.put(account, updated),
  };
  return seams;
};
