/** The suite's own errors, as opposed to findings about the target: one type, whose kind says whose fault it is and which exit code CI sees. */
export const EXIT_CONFIG_ERROR = 3;
export const EXIT_TARGET_UNAVAILABLE = 4;

type SuiteErrorKind =
  /** a bad variable or waiver file: the run stops before any test (exit 3) */
  | 'config'
  /** the target cannot be reached at all (refused, DNS, TLS, timeout): the run stops (exit 4) */
  | 'unreachable'
  /** the target answers but serves no OpenAPI document: SPEC-1 fails, the run goes on */
  | 'no-spec'
  /** a test cannot go on (a check that cannot be read or put back, a request that got no answer) */
  | 'cannot-test';

export class SuiteError extends Error {
  constructor(
    readonly kind: SuiteErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SuiteError';
    this.stack = message;
  }
}

export const isSuiteError = (e: unknown, kind?: SuiteErrorKind): e is SuiteError => e instanceof SuiteError && (kind === undefined || e.kind === kind);
