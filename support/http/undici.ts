/**
 * undici, loaded on first use: the runner imports the modules that send (to list the tests) and sends
 * nothing, and loading undici costs about a tenth of a second.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const undici = () => require('undici') as typeof import('undici');
