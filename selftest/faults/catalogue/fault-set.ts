// The rows of the fault kinds in a MOCK_FAULT, and one typed question per kind, asked at the one place
// that kind bends. ALIASES: the named faults that are exactly one row of a kind, listed as that row.
import { isDeepStrictEqual } from 'node:util';
import type { CHECK_ID_SHAPES } from './fault-kinds';
import type {
  AgentEndpoint,
  AltKeyWhere,
  ApplyBeforeRule,
  AnyAgentEndpoint,
  AuthRule,
  BodyPattern,
  BodyShape,
  BucketPart,
  ErrorMutation,
  FaultKind,
  HeaderMutation,
  Place,
  RuntimeField,
  RuntimeIdClass,
} from './fault-kinds';

export const ALIASES: Readonly<Record<string, FaultKind>> = {
  'auth-no-key-accepted': { kind: 'auth-skip', place: 'any', rule: 'key' },
  'auth-any-scheme': { kind: 'auth-skip', place: 'any', rule: 'scheme' },
  'auth-any-key': { kind: 'auth-skip', place: 'any', rule: 'unknown-key' },
  'auth-no-account-check': { kind: 'auth-skip', place: 'any', rule: 'account-missing' },
  'auth-account-not-guid': { kind: 'auth-skip', place: 'any', rule: 'account-malformed' },
  'auth-other-account': { kind: 'auth-skip', place: 'any', rule: 'account-other' },
  'ind7-auth-head-unauthenticated': { kind: 'auth-method', method: 'HEAD' },
  'ind7-cu-cross-account-id': { kind: 'unknown-check', place: 'any', idShape: 'foreign', answer: 'found' },
  'auth-echo-key': { kind: 'errbody', place: 'any', status: 401, mutation: 'echo-key' },
  'err-404-string-status': { kind: 'errbody', place: 'any', status: 404, mutation: 'string-status' },
  'err-404-wording': { kind: 'errbody', place: 'any', status: 404, mutation: 'wording' },
  'err-text-content-type': { kind: 'errbody', place: 'any', status: 'any', mutation: 'text-type' },
  'err-status-mismatch': { kind: 'errbody', place: 'any', status: 401, mutation: 'status-mismatch' },
  'rl-bad-headers': { kind: 'rl-headers', mutation: 'remaining-stuck' },
  'cu-partial-apply': { kind: 'leak', property: 'name' },
  'agent-liveness-dies-on-shutdown': { kind: 'agent-health-dies', endpoint: 'liveness' },
};

type Of<K extends FaultKind['kind']> = Extract<FaultKind, { kind: K }>;

/** A fault's place covers the request's place; null is a route without a role (list, swagger, unknown). */
const covers = (faultPlace: Place, place: Place | null): boolean => faultPlace === 'any' || faultPlace === place;

/** Every property of the pattern is in the body with a deep-equal value. */
function matches(pattern: BodyPattern, body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  return Object.entries(pattern).every(([k, v]) => Object.hasOwn(body, k) && isDeepStrictEqual((body as BodyPattern)[k], v));
}

export class Faults {
  private readonly kinds: readonly FaultKind[];

  constructor(kinds: Iterable<FaultKind>) {
    this.kinds = [...kinds];
  }

  private of<K extends FaultKind['kind']>(kind: K): Array<Of<K>> {
    return this.kinds.filter((f): f is Of<K> => f.kind === kind);
  }

  /** accept / refuse: does one of these rows match this body on a stored check of this type? */
  bodyMatches(kind: 'accept' | 'refuse' | 'crash', storedType: string, body: unknown): boolean {
    return this.of(kind).some((f) => (f.checkType === 'any' || f.checkType === storedType) && matches(f.pattern, body));
  }

  /** take-body: is a body of this shape read as {} instead of refused? */
  takesBody(shape: BodyShape): boolean {
    return this.of('take-body').some((f) => f.shape === shape);
  }

  /** rt-field: the fields every runtime is served with bent (a value, or MISSING). */
  runtimeFieldBends(): Array<{ field: RuntimeField; value: unknown }> {
    return this.of('rt-field').map(({ field, value }) => ({ field, value }));
  }

  /** unknown-check: how a check id nobody created is answered on this place, when a fault says. */
  unknownCheckAnswer(place: Place | null, shape: (typeof CHECK_ID_SHAPES)[number]): 'found' | 'fail' | undefined {
    return this.of('unknown-check').find((f) => covers(f.place, place) && f.idShape === shape)?.answer;
  }

  /** rt-unknown and rt-id: how an unknown id (this one, of this class) is answered, when a fault says. */
  unknownRuntimeAnswer(idClass: RuntimeIdClass | undefined, id?: string): 'found' | 'fail' | undefined {
    const exact = id === undefined ? undefined : this.of('rt-id').find((f) => f.id === id)?.answer;
    return exact ?? (idClass && this.of('rt-unknown').find((f) => f.idClass === idClass)?.answer);
  }

  leakedProperties(): string[] {
    return this.of('leak').map((f) => f.property);
  }

  authSkips(place: Place | null, rule: AuthRule): boolean {
    return this.of('auth-skip').some((f) => f.rule === rule && covers(f.place, place));
  }

  /** auth-alt: the names a key is looked for under in <where>, when Authorization is missing. */
  altKeyNames(where: AltKeyWhere): string[] {
    return this.of('auth-alt')
      .filter((f) => f.where === where)
      .map((f) => f.name);
  }

  /** auth-method: are requests of this method let through without authentication? */
  authSkipsMethod(method: string): boolean {
    return this.of('auth-method').some((f) => f.method === method);
  }

  /** apply-before: is an update refused for this rule applied first? */
  appliesBefore(rule: ApplyBeforeRule): boolean {
    return this.of('apply-before').some((f) => f.rule === rule);
  }

  authStrict(place: Place | null): boolean {
    return this.of('auth-strict').some((f) => covers(f.place, place));
  }

  errorMutations(place: Place | null, status: number): ErrorMutation[] {
    return this.of('errbody')
      .filter((f) => covers(f.place, place) && (f.status === 'any' || f.status === status))
      .map((f) => f.mutation);
  }

  rateLimitDelta(): number {
    return this.of('rl-limit').reduce((sum, f) => sum + f.delta, 0);
  }

  /** rl-later-limit: how far the global limit is off in every window of a key after its first. */
  laterLimitDelta(): number {
    return this.of('rl-later-limit').reduce((sum, f) => sum + f.delta, 0);
  }

  rateLimitExempt(place: Place | null): boolean {
    return this.of('rl-exempt').some((f) => covers(f.place, place));
  }

  /** rl-bucket: what joins the key in a bucket's name (none: the key alone, as it should). */
  bucketParts(): BucketPart[] {
    return this.of('rl-bucket').map((f) => f.part);
  }

  headerLies(): HeaderMutation[] {
    return this.of('rl-headers').map((f) => f.mutation);
  }

  /** agent-down: what <endpoint> answers while the agent runs, when a fault says. */
  agentDownStatus(endpoint: AnyAgentEndpoint): number | undefined {
    return this.of('agent-down').find((f) => f.endpoint === endpoint)?.status;
  }

  /** How long readiness stays 200 after SIGTERM (0: it falls at once, as it should). */
  readyLateMs(): number {
    return Math.max(0, ...this.of('agent-ready-late').map((f) => f.ms));
  }

  healthDies(endpoint: AgentEndpoint): boolean {
    return this.of('agent-health-dies').some((f) => f.endpoint === endpoint);
  }

  /** How long before the exit `endpoint` starts answering 503 (0: never). */
  diesLateMs(endpoint: AgentEndpoint): number {
    return Math.max(
      0,
      ...this.of('agent-dies-late')
        .filter((f) => f.endpoint === endpoint)
        .map((f) => f.ms),
    );
  }
}
