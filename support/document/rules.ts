/**
 * The document's own rules that a spec cannot express, as zod schemas. Each field maps to the clause
 * it verifies, so a zod issue becomes a failure of the right clause.
 */
import { z } from 'zod/v3';
import type { ClauseId } from './clauses';
import { END_OF_LIFE_FORM, ERROR_WORDING, NODE_VERSION_FORM, RUNTIME_NAME_FORM, RUNTIME_STAGES } from './facts';

/** RUNTIME_NAME_FORM (YYYY.MM) with a real month. */
const RUNTIME_NAME = /^\d{4}\.(0[1-9]|1[0-2])$/;
const NODE_VERSION = /^v\d+\.\d+\.\d+$/;

/** END_OF_LIFE_FORM (MM/DD/YYYY) naming a day that exists (no 02/30). */
function isCalendarDate(value: string): boolean {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!m) return false;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export const runtimeFields = {
  name: {
    clause: 'RT-2',
    schema: z.string().regex(RUNTIME_NAME, `is not ${RUNTIME_NAME_FORM} with a real month`),
    required: true,
    allowed: `${RUNTIME_NAME_FORM}, equal to the requested id`,
  },
  nodeJsVersion: {
    clause: 'RT-3',
    schema: z.string().regex(NODE_VERSION, `is not ${NODE_VERSION_FORM}`),
    required: true,
    allowed: `${NODE_VERSION_FORM}, e.g. v22.11.0`,
  },
  multiStepSupport: { clause: 'RT-4', schema: z.boolean(), required: true, allowed: 'a boolean' },
  stage: { clause: 'RT-5', schema: z.enum(RUNTIME_STAGES), required: false, allowed: RUNTIME_STAGES.join(', ') },
  runtimeEndOfLife: {
    clause: 'RT-6',
    schema: z.string().refine(isCalendarDate, `is not a real date written ${END_OF_LIFE_FORM}`),
    required: false,
    allowed: `a real date written ${END_OF_LIFE_FORM}`,
  },
  dependencies: {
    clause: 'RT-7',
    schema: z.record(z.string().min(1), z.string().min(1)).refine((d) => Object.keys(d).length > 0, 'is empty'),
    required: true,
    allowed: 'a non-empty map of package name to version string',
  },
  description: { clause: 'RT-8', schema: z.string(), required: false, allowed: 'a string' },
} satisfies Record<string, { clause: ClauseId; schema: z.ZodTypeAny; required: boolean; allowed: string }>;

const fieldNames = Object.keys(runtimeFields) as (keyof typeof runtimeFields)[];
/** The fields the Runtime schema must require (SPEC-6): those the document requires (RT-*). */
export const REQUIRED_RUNTIME_FIELDS: string[] = fieldNames.filter((name) => runtimeFields[name].required);
/** The fields it must not require: the document marks them "Required: no". */
export const OPTIONAL_RUNTIME_FIELDS: string[] = fieldNames.filter((name) => !runtimeFields[name].required);

const optionalMessage = { message: z.string().optional() };

export const errorBodies = {
  404: z.object({ statusCode: z.literal(404), error: z.literal(ERROR_WORDING[404]), ...optionalMessage }).passthrough(),
  429: z
    .object({ statusCode: z.literal(429), error: z.literal(ERROR_WORDING[429]), ...optionalMessage, attributes: z.object({}).passthrough().optional() })
    .passthrough(),
} as const;

/** The documented body of a 404 or a 429, as a failure's `allowed` line states it. */
export const documentedErrorBody = (status: 404 | 429) =>
  `{ "statusCode": ${status}, "error": "${ERROR_WORDING[status]}", "message"?: string${status === 429 ? ', "attributes"?: object' : ''} }`;

const statusBodies = new Map<number, z.ZodTypeAny>();
/** Any error body: a JSON object whose statusCode is the HTTP status (ERR-4). One schema per status, made once. */
export const errorBodyFor = (status: number): z.ZodTypeAny => {
  let schema = statusBodies.get(status);
  if (!schema) statusBodies.set(status, (schema = z.object({ statusCode: z.literal(status) }).passthrough()));
  return schema;
};

export const isJsonContentType = (contentType: string) => /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());

/**
 * A zod error as a check records it, the way zod keeps an issue's path apart from its message: the
 * fields its issues are of (none when the value itself is wrong), their messages, and what was received:
 * the value at the one field, else the whole value (a field that is missing shows what holds it).
 */
export function zodFinding(error: z.ZodError, value: unknown): { field?: string; fields: number; problem: string; received: unknown } {
  const paths = [...new Set(error.issues.map((i) => i.path.join('.')))].filter(Boolean);
  const at =
    paths.length === 1
      ? error.issues
          .find((i) => i.path.length)!
          .path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value)
      : undefined;
  return {
    ...(paths.length ? { field: paths.join(', ') } : {}),
    fields: paths.length,
    problem: [...new Set(error.issues.map((i) => i.message))].join('; '),
    received: at === undefined ? value : at,
  };
}

/** A title that reads after the fields a zod error names: "does not match `what`: its messages" (the body itself, when it names none). */
export const zodTitle = ({ fields, problem }: ReturnType<typeof zodFinding>, what: string) =>
  `${fields === 0 ? 'the body is not' : fields === 1 ? 'does not match' : 'do not match'} ${what}: ${problem}`;
