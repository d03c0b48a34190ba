/** One request and its response, as the suite saw them, how a person reads them in a report, and how to send it again. */
import { redact, REDACTED, redactSecrets, swapCase } from './redact';
import type { RawResponse } from './transport';

/** The transport's answer (status, headers, text, a byte order mark), with the request and the parsed body (JSON, else undefined). */
export type Exchange = RawResponse & {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  json: unknown;
  contentType: string;
  ms: number;
};

const trim = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more chars)` : text);

export const oneLine = (e: Exchange) => redact(`${e.method} ${e.url} → ${e.status} (${e.ms} ms)`);

/** Header lines; an Authorization value is never shown, whatever it is. The rest is redacted with the whole text. */
const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? REDACTED : v}`);

export function describeExchange(e: Exchange, maxBody = 2000): string {
  const lines = [
    `${e.method} ${e.url}`,
    ...headerLines(e.requestHeaders),
    ...(e.requestBody ? ['', trim(e.requestBody, maxBody)] : []),
    '',
    `→ ${e.status} (${e.ms} ms)`,
    ...headerLines(e.headers),
    '',
    trim(e.text, maxBody),
  ];
  return shortenRuns(redact(lines.join('\n')));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Secrets a reproduce command names instead of showing: the variable's name (`API_KEY`) and its value; the first name of a value wins. */
export type SecretNames = Readonly<Record<string, string | undefined>>;

/** A piece of a shell word: text as it was sent, or an expression that the shell turns into a secret. */
type Piece = { text: string } | { shell: string };

/** The value of `$NAME`, and what the probes make of it, each as the shell can make it again. */
function spellings(name: string, value: string): Array<[string, string]> {
  const of = (filter: string) => `$(printf %s "$${name}" | ${filter})`;
  return [
    [value, `$${name}`],
    [value.toUpperCase(), of('tr a-z A-Z')],
    [value.toLowerCase(), of('tr A-Z a-z')],
    [swapCase(value), of('tr a-zA-Z A-Za-z')],
    // A Basic header's credentials: base64 of `key:` (without the line breaks base64 puts in long output).
    [Buffer.from(`${value}:`).toString('base64'), `$(printf %s "$${name}:" | base64 | tr -d '\\n')`],
  ];
}

/** Each secret's spellings as the shell makes them again, and a pattern that finds them: made once per configuration's names, not per failure. */
const spellers = new Map<string, { shellOf: Map<string, string>; pattern?: RegExp }>();
function spellerOf(names: SecretNames) {
  const key = JSON.stringify(names);
  let speller = spellers.get(key);
  if (!speller) {
    const shellOf = new Map<string, string>();
    for (const [name, value] of Object.entries(names))
      if (value) for (const [spelt, shell] of spellings(name, value)) if (!shellOf.has(spelt)) shellOf.set(spelt, shell);
    // Only where a value starts (after `=`, `: `, a space…): a short key is no name for the middle of another word.
    const spelt = [...shellOf.keys()].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    spellers.set(key, (speller = { shellOf, pattern: shellOf.size ? new RegExp(`(?<![\\w+/.%-])(?:${spelt.join('|')})`, 'g') : undefined }));
  }
  return speller;
}

/** `text` cut into pieces at every spelling of a named secret; the rest redacted of the registered ones. */
function named(text: string, names: SecretNames): Piece[] {
  const { shellOf, pattern } = spellerOf(names);
  if (!pattern) return [{ text: redactSecrets(text) }];
  const pieces: Piece[] = [];
  let done = 0;
  for (const m of text.matchAll(pattern)) {
    pieces.push({ text: redactSecrets(text.slice(done, m.index)) }, { shell: shellOf.get(m[0])! });
    done = m.index + m[0].length;
  }
  pieces.push({ text: redactSecrets(text.slice(done)) });
  return pieces.filter((p) => !('text' in p) || p.text);
}

/** A run of one character this long (a probe's value over a size limit) is written as what makes it, not spelt out. */
const LONG_RUN = /([A-Za-z0-9])\1{255,}/g;

/** The text pieces' long runs of one letter or digit as the shell makes them again: `$(printf '%*s' 20480 '' | tr ' ' x)`. */
const runsAsShell = (pieces: Piece[]): Piece[] =>
  pieces.flatMap((p) => {
    if (!('text' in p)) return [p];
    const out: Piece[] = [];
    let done = 0;
    for (const m of p.text.matchAll(LONG_RUN)) {
      out.push({ text: p.text.slice(done, m.index) }, { shell: `$(printf '%*s' ${m[0].length} '' | tr ' ' ${m[1]})` });
      done = m.index + m[0].length;
    }
    out.push({ text: p.text.slice(done) });
    return out.filter((x) => !('text' in x) || x.text);
  });

/** For people: a long run of one letter or digit shortened to its start and its length, as in `xxxxxxxx…(20480 × x)`. */
export const shortenRuns = (text: string) => text.replace(LONG_RUN, (run, c: string) => `${c.repeat(8)}…(${run.length} × ${c})`);

/** Text that means the same inside double quotes as inside single ones. */
const PLAIN_IN_DOUBLE_QUOTES = /^[^"\\$`!]*$/;

/**
 * One shell word: single-quoted when it names no secret; else double-quoted so that the variables expand, or, where the text
 * holds what double quotes would interpret, single-quoted text and double-quoted variables side by side.
 */
function shellWord(pieces: Piece[]): string {
  if (pieces.every((p) => 'text' in p)) return quote(pieces.map((p) => ('text' in p ? p.text : '')).join(''));
  // `$API_KEY` right before a letter would name another variable.
  const shown = pieces.map((p, i) => {
    if ('text' in p) return p;
    const next = pieces[i + 1];
    return { shell: next && 'text' in next && /^\w/.test(next.text) ? p.shell.replace(/^\$(\w+)$/, '${$1}') : p.shell };
  });
  if (shown.every((p) => !('text' in p) || PLAIN_IN_DOUBLE_QUOTES.test(p.text))) return `"${shown.map((p) => ('text' in p ? p.text : p.shell)).join('')}"`;
  return shown.map((p) => ('text' in p ? quote(p.text) : `"${p.shell}"`)).join('');
}

/** A body this long is clipped in the command shown: its first CURL_BODY_SHOWN characters, and a comment that says how many were cut. */
export const CURL_BODY_CLIP = 1000;
export const CURL_BODY_SHOWN = 500;

/** The pieces' first `max` characters as shown, never cutting a variable or a «redacted» in two; and how many shown characters were cut. */
function clip(pieces: Piece[], max: number): { pieces: Piece[]; cut: number } {
  const kept: Piece[] = [];
  let room = max;
  let cut = 0;
  for (const p of pieces) {
    const length = 'text' in p ? p.text.length : p.shell.length;
    if (!cut && length <= room) {
      kept.push(p);
      room -= length;
    } else if (!cut && 'text' in p) {
      const marker = p.text.lastIndexOf(REDACTED, room - 1);
      const take = marker >= 0 && marker + REDACTED.length > room ? marker : room;
      if (take > 0) kept.push({ text: p.text.slice(0, take) });
      cut += length - take;
    } else cut += length;
  }
  return { pieces: kept, cut };
}

/**
 * A `curl` that sends a failing request again, with `$API_KEY` and the like where the named secrets were (in the URL, a header, a cookie,
 * the body), so that it runs once they are exported. Any other Authorization value is never shown.
 */
export function curlOf(e: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>, names: SecretNames = {}): string {
  const parts = ['curl', '-sS', '-i'];
  if (e.method !== 'GET') parts.push('-X', e.method);
  parts.push(shellWord(runsAsShell(named(e.url, names))));
  for (const [k, v] of Object.entries(e.requestHeaders)) {
    const pieces = named(`${k}: ${v}`, names);
    const hidden = k.toLowerCase() === 'authorization' && pieces.every((p) => 'text' in p) && v.trim();
    parts.push(
      '-H',
      hidden ? quote(`${k}: ${v.trim().split(/\s+/).length > 1 ? `${v.trim().split(/\s+/)[0]} ` : ''}${REDACTED}`) : shellWord(runsAsShell(pieces)),
    );
  }
  if (e.requestBody !== undefined) {
    const body = named(e.requestBody, names);
    const { pieces, cut } = e.requestBody.length >= CURL_BODY_CLIP ? clip(body, CURL_BODY_SHOWN) : { pieces: body, cut: 0 };
    parts.push('--data-raw', shellWord(pieces.length ? pieces : [{ text: '' }]));
    if (cut) parts.push(`# body clipped: ${cut} more characters not shown`);
  }
  return parts.join(' ');
}
