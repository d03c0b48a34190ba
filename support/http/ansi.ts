/** Terminal colour codes in an error text (Playwright's expect messages carry them) removed. */
// eslint-disable-next-line no-control-regex -- the escape character is exactly what is matched
const ANSI = /\u001b\[[0-9;]*m/g;

export const stripAnsi = (s: string) => s.replace(ANSI, '');
