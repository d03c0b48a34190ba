/**
 * Places: the routes a rule is tried on, by the role they play in the document, stamped on every check.
 * The names are fixed: the self-test's generated faults use the same words for the reference's routes.
 */
export const PLACE = {
  /** GET /v1/runtimes/{id} */
  runtime: 'runtime',
  /** GET of one check (the path of the deprecated update) */
  checkRead: 'check-read',
  /** the deprecated check update */
  checkUpdate: 'check-update',
  /** GET /openapi.json */
  spec: 'spec',
  agentReadiness: 'agent-readiness',
  agentLiveness: 'agent-liveness',
  agentHealth: 'agent-health',
} as const;
