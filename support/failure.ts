/**
 * A broken clause, stated the schemathesis way: the clause and a short title first, then what was
 * received, then what the document allows. The text is redacted, since it may quote a response.
 */
import type { ClauseId } from './clauses';
import { redact } from './redact';

export const show = (value: unknown, max = 200): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

export class ClauseFailure extends Error {
  constructor(
    readonly clause: ClauseId,
    readonly title: string,
    readonly received: unknown,
    readonly allowed: string,
  ) {
    super(redact(`${clause}: ${title}\n  received: ${show(received)}\n  allowed:  ${allowed}`));
    this.name = 'ClauseFailure';
    // Point the report at the test's own line, not at the support code that built the failure.
    const frames = (this.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !/[\\/](support|node_modules)[\\/]/.test(l));
    this.stack = [this.message, ...frames].join('\n');
  }
}
