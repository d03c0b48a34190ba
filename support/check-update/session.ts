/**
 * The family's session in one worker: the snapshot, how the check is read and updated, the body's vocabulary and the state
 * each check should be in now. Opened by the first test that needs it (its requests count there) and kept for the others.
 */
import { existsSync, rmSync } from 'node:fs';
import type { OpenAPIV3 } from 'openapi-types';
import type { Config } from '../run/config';
import { redact } from '../http/redact';
import { currentRunId } from '../run/run-files';
import { isSuiteError, SuiteError } from '../run/suite-error';
import { fillPath, jsonBodySchema, type Target } from '../spec/target';
import { planCarriers } from './carriers';
import { describeRestore, restoreCheck, restored, snapshotPath, takeSnapshot, type Send } from './snapshot';
import { writableProperties } from './state';
import { EXPECTED_TYPE, type CheckKind } from './table';
import { PUBLISHED_NAMES, requiresFullBody, specFactsOf, vocabularyOf } from './vocabulary';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The update's boolean query parameter (the document's autoAssignAlerts, by whatever name the spec gives it). */
export function autoSubscribeParam(target: Target): string | undefined {
  const params = (target.updateOp?.op.parameters ?? []) as OpenAPIV3.ParameterObject[];
  return params.find((p) => p?.in === 'query' && (p.schema as Json)?.type === 'boolean')?.name;
}

/** How the family reads and updates a check on this target, and what the update's body is like: the spec's, derived once. */
export function updateShape(target: Target) {
  const vocabulary = vocabularyOf(target);
  const queryParam = autoSubscribeParam(target);
  // The body schema's properties; without them, at least the ones this family changes.
  const fromSpec = writableProperties(target.updateOp);
  return {
    // The update's method and the check's paths, relative to BASE_URL.
    routes: {
      method: target.updateMethod,
      updatePath: (id: string) => fillPath(target.updatePath!, id),
      readPath: (id: string) => fillPath(target.readPath!, id),
    },
    /** What a restore sends and what a read-back compares. */
    writable: fromSpec.length ? fromSpec : Object.values(PUBLISHED_NAMES),
    /** The query every update carries: the auto-subscribe parameter, false, unless the update tests it. */
    query: queryParam ? { [queryParam]: 'false' } : undefined,
    /** Properties that constrain one another, by the target's names: a restore sends them together or not at all. */
    coupled: [vocabulary.checkType, vocabulary.frequency, vocabulary.frequencyOffset].filter((n): n is string => !!n),
    vocabulary,
    /** The body schema lists required properties (a replace): each update carries the check's whole writable state. */
    fullBody: requiresFullBody(target),
    queryParam,
    carriers: planCarriers(target.updateOp, vocabulary),
    facts: specFactsOf(jsonBodySchema(target.updateOp)),
  };
}

export type UpdateShape = ReturnType<typeof updateShape>;

/** One check's session: its snapshot and the state it should be in now. */
export type Session = Exclude<Awaited<ReturnType<typeof openSession>>, string>;

/** Why the family cannot send anything to this target, by its spec (SPEC-5 reports the gap itself). */
export function specGap(target: Target): string | undefined {
  if (!target.updateOp || !target.updatePath) return "the target's spec has no check update whose body has frequencyOffset (see SPEC-5): nothing to send";
  if (!target.readCheckOp || !target.readPath)
    return `the target's spec declares no GET ${target.updateOp.path}: the suite cannot read a check back, so it changes none`;
  return undefined;
}

/** A check's session, its snapshot taken; a string: why the check's tests are skipped; anything else one line of failure, in every test that opens it. */
async function openSession(config: Config, target: Target, send: Send, kind: CheckKind) {
  const gap = specGap(target);
  if (gap) return gap;
  const [id, variable, what] =
    kind === 'api'
      ? [config.checkId, 'CHECK_ID', 'the update tests change only an API check']
      : [config.browserCheckId, 'BROWSER_CHECK_ID', 'the browser cells change only a browser check'];
  if (!id) return `${variable} is not set: against a remote target ${what} named by ${variable} (and restore it)`;
  const shape = updateShape(target);
  const file = snapshotPath(config.reportDir, config.baseUrl, config.embedded, id);
  try {
    const taken = await takeSnapshot({ ...shape, file, baseUrl: config.baseUrl, embedded: config.embedded, runId: currentRunId(), id, send });
    const type = shape.vocabulary.checkType ? taken.current[shape.vocabulary.checkType] : undefined;
    return {
      ...shape,
      file,
      snapshot: taken.snapshot,
      kind,
      id,
      /** The check's type as read before the first update (the document's rules depend on it). */
      ownType: typeof type === 'string' ? type : EXPECTED_TYPE[kind],
      /** The state the check should be in now: the last read, with every update accepted since applied. */
      expected: taken.current,
      /** What opening did (an earlier run's leftover put back, this run's snapshot kept), for the first test's report. */
      notes: taken.notes,
      /** The carrier values of every body the target refused so far: the model's memory, so a leak shows at any later read. */
      refusedCarriers: [] as Array<{ property: string; value: unknown; title: string; status: number }>,
    };
  } catch (e) {
    throw isSuiteError(e, 'cannot-test') ? new SuiteError('cannot-test', redact(e.message)) : e;
  }
}

/** The worker's sessions, one per check, each opened once on demand (a string: why it is skipped); each check has its own snapshot file, so the two chains can run in two workers. `plain` sends the worker's own requests (the restore after the tests). */
export function checkSessions(config: Config, target: Target, plain: Send) {
  const opening = new Map<CheckKind, Promise<Session | string>>();
  return {
    /** Opens the check's session with the first test's client (its requests are that test's). */
    open(send: Send, kind: CheckKind): Promise<Session | string> {
      if (!opening.has(kind)) opening.set(kind, openSession(config, target, send, kind));
      return opening.get(kind)!;
    },
    /** Restores each check whose chain's final test did not run; a restore that fails leaves the file for the next run. */
    async finish(): Promise<void> {
      const opened = await Promise.all([...opening.values()].map((o) => o.catch(() => '')));
      opening.clear();
      for (const s of opened) {
        if (typeof s === 'string' || !existsSync(s.file)) continue;
        const r = await putBack(s, plain);
        if (!restored(r)) {
          const text = redact(`restored after the tests: ${describeRestore(r)}`);
          process.stderr.write(`check update: ${text}\nthe snapshot stays in ${s.file}; the next run against this target restores it\n`);
        }
      }
    },
  };
}

export type CheckSessions = ReturnType<typeof checkSessions>;

/** Puts the check back as its snapshot has it (reading with `read`), its state now what was read; restored, the snapshot file goes. */
export async function putBack(s: Session, read: Send, write: Send = read) {
  const r = await restoreCheck(s, s.id, s.snapshot.checks[s.id], read, write);
  if (r.state) s.expected = r.state;
  if (restored(r)) rmSync(s.file, { force: true });
  return r;
}
