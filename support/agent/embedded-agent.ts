/** The embedded agent, started with the same runtime as the suite (its default AGENT_COMMAND). */
export const EMBEDDED_AGENT_COMMAND = 'node support/run/embedded.mjs reference/agent/main.ts';
