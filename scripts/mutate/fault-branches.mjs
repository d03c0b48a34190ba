/**
 * A Stryker ignorer: the mutants of code that only runs when a MOCK_FAULT is set are ignored, with the
 * reason, instead of being run against a default contract run that can never reach them. The reference
 * keeps no Stryker comments; the rule is read from the code's shape:
 *
 *   - a query of the fault set (`faults.has('x')`, `opts.faults.errorMutations(…)`) is the self-test's
 *     business: with no fault set it answers nothing (false, undefined, 0 or an empty list);
 *   - a condition that is falsy whenever no fault is set guards fault-only code: the `if`'s consequent,
 *     the `?:`'s consequent, the right side of `&&`; one that is truthy then guards the alternates and
 *     the right side of `||`; and a guard `if (<truthy>) return …;` makes the statements after it fault-only;
 *   - the other operand of a `&&` whose one side is falsy then (or of a `||` whose side is truthy) cannot
 *     change the result (the reference's conditions have no side effects);
 *   - the body of a loop over a list query (`for (const d of faults.specDrops())`) never runs.
 *
 * Code that runs only under a fault some other way (a flag set from `faults.has(…)` and read elsewhere)
 * is found by coverage instead: the contract-run test runner reports which mutants a default run reaches,
 * and the others are NoCoverage.
 */
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** The fault set's methods that answer a list, read from its declaration (reference/fault-set.ts). */
const LIST_QUERIES = new Set(
  [...readFileSync(new URL('../../reference/fault-set.ts', import.meta.url), 'utf8').matchAll(/^ {2}(\w+)\([^)]*\): ([^{]+)\{/gm)]
    .filter(([, , type]) => /\[\]|Array</.test(type))
    .map(([, name]) => name),
);

const QUERY = 'a fault query: the self-test covers it (with no fault set it answers nothing)';
const BRANCH = 'fault branch: runs only with a MOCK_FAULT set, unreachable in a default run';
const MOOT = 'beside a fault condition: cannot change it in a default run';

// Stryker places a node's mutants on the way back up, so the siblings already passed are instrumented:
// `stryMutAct_9fa48("1") ? mutated : (stryCov_9fa48("1"), original)` for an expression, and
// `if (stryMutAct_9fa48("1")) { mutated } else { stryCov_9fa48("1"); original }` for a statement.
const isHelperCall = (n, name) => n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === name;
const isSwitch = (n) => isHelperCall(n, 'stryMutAct_9fa48');
const isCover = (n) => isHelperCall(n, 'stryCov_9fa48') || (n?.type === 'ExpressionStatement' && isCover(n.expression.expressions?.[0] ?? n.expression));

/** The expression as written: without parentheses, type assertions and Stryker's instrumentation. */
function unwrap(n) {
  if (['ParenthesizedExpression', 'TSNonNullExpression', 'TSAsExpression'].includes(n?.type)) return unwrap(n.expression);
  if (n?.type === 'ConditionalExpression' && isSwitch(n.test)) return unwrap(n.alternate);
  if (n?.type === 'SequenceExpression' && isCover(n.expressions[0]) && n.expressions.length === 2) return unwrap(n.expressions[1]);
  return n;
}

/** The statement as written, without Stryker's instrumentation. */
function original(s) {
  if (s?.type === 'IfStatement' && isSwitch(s.test)) return original(s.alternate);
  if (s?.type === 'BlockStatement') {
    const body = s.body.filter((b) => !isCover(b));
    if (body.length === 1 && body[0].type === 'IfStatement' && isSwitch(body[0].test)) return original(body[0]);
    return body.length === s.body.length ? s : { ...s, body };
  }
  return s;
}
const isFaultSet = (n) =>
  (n = unwrap(n)) && ((n.type === 'Identifier' && n.name === 'faults') || (n.type === 'MemberExpression' && n.property.name === 'faults'));
/** `faults.<method>(…)`: its method name, or undefined. */
function queryOf(n) {
  n = unwrap(n);
  if (n?.type !== 'CallExpression' || n.callee.type !== 'MemberExpression' || !isFaultSet(n.callee.object)) return undefined;
  return n.callee.property.name;
}
const isListQuery = (n) => LIST_QUERIES.has(queryOf(n));

/** Falsy in every run with no fault set. */
function off(n) {
  n = unwrap(n);
  if (!n) return false;
  if (queryOf(n)) return !isListQuery(n);
  // faults.headerLies().length, faults.altKeyNames(w).some(…)
  if (n.type === 'MemberExpression' && n.property.name === 'length') return isListQuery(n.object);
  if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && ['some', 'includes'].includes(n.callee.property.name))
    return isListQuery(n.callee.object);
  if (n.type === 'UnaryExpression' && n.operator === '!') return on(n.argument);
  if (n.type === 'LogicalExpression' && n.operator === '&&') return off(n.left) || off(n.right);
  if (n.type === 'LogicalExpression' && n.operator === '||') return off(n.left) && off(n.right);
  return false;
}

/** Truthy in every run with no fault set. */
function on(n) {
  n = unwrap(n);
  if (n?.type === 'UnaryExpression' && n.operator === '!') return off(n.argument);
  if (n?.type === 'LogicalExpression' && n.operator === '&&') return on(n.left) && on(n.right);
  if (n?.type === 'LogicalExpression' && n.operator === '||') return on(n.left) || on(n.right);
  return false;
}

function exits(s) {
  s = original(s);
  return (
    ['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement'].includes(s?.type) || (s?.type === 'BlockStatement' && exits(s.body.at(-1)))
  );
}

/** A statement after `if (<truthy with no fault>) return …;` in the same block. */
function afterGuard(path) {
  if (path.listKey !== 'body' || typeof path.key !== 'number') return false;
  return path.container
    .slice(0, path.key)
    .map(original)
    .some((s) => s.type === 'IfStatement' && !s.alternate && on(s.test) && exits(s.consequent));
}

function shouldIgnore(path) {
  const { node, parent, key } = path;
  if (queryOf(node)) return QUERY;
  if (!parent) return undefined;
  if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && key !== 'test') {
    if ((key === 'consequent' && off(parent.test)) || (key === 'alternate' && on(parent.test))) return BRANCH;
  }
  if (parent.type === 'LogicalExpression' && (parent.operator === '&&' || parent.operator === '||')) {
    const other = key === 'left' ? parent.right : parent.left;
    const decides = parent.operator === '&&' ? off : on;
    // The right side is never evaluated; the left one cannot change what the other side decides.
    if (decides(other)) return key === 'right' ? BRANCH : MOOT;
  }
  if (parent.type === 'ForOfStatement' && key === 'body' && isListQuery(parent.right)) return BRANCH;
  if (afterGuard(path)) return BRANCH;
  return undefined;
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'fault-branches', { shouldIgnore })];
