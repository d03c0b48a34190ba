/**
 * The request lens's body dimension: the update's body in other top-level JSON types, media types and
 * sizes (BODY_OPERATORS), as cells of the check update's chain. The cell runner adds the carriers (valid
 * changes of every kind) to each body the target must or may refuse and reads the check afterwards, so a
 * refused body that changed something fails CU-7 (and one taken though the spec forbids it, its clause).
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { Cell } from '../check-update/cells';
import type { CheckKind } from '../check-update/table';
import type { UpdateVocabulary } from '../check-update/vocabulary';
import { jsonBodySchema, type Target } from '../spec/target';
import { BODY_OPERATORS, type BodyOperator } from './operators';

/** The oracle: the document asks for a JSON body with the Check's properties; the spec decides what it leaves open. */
function expectationOf(op: BodyOperator, target: Target): Cell['expect'] {
  if (op.expect === 'invalid-if-object') {
    const s = jsonBodySchema(target.updateOp);
    return s && (s.type === 'object' || s.properties || s.allOf) ? 'invalid' : 'either';
  }
  if (op.expect === 'invalid-if-required') return (target.updateOp?.op.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.required ? 'invalid' : 'either';
  return op.expect;
}

const must = {
  valid: 'must be taken like application/json',
  invalid: 'must be refused, changing nothing',
  either: 'may be taken, or refused changing nothing',
};

/** The body cells of one check; `token` makes the names the valid ones send their own. */
export function bodyLensCells(check: CheckKind, target: Target, names: UpdateVocabulary, token: string): Cell[] {
  return BODY_OPERATORS.flatMap((op, i): Cell[] => {
    if (op.named && !names.name) return [];
    const expect = expectationOf(op, target);
    return [
      {
        title: `body ${op.name}: ${must[expect]} (${expect === 'valid' ? 'CU-1' : 'CU-7'})`,
        check,
        clause: expect === 'valid' ? 'CU-1' : 'CU-7',
        valueClass: `request:body:${op.name}`,
        body: op.named ? { [names.name!]: `contract-suite request ${token}-${i}` } : {},
        expect,
        wire: (body) => {
          const { rawBody, contentType } = op.wire(body);
          return { rawBody, headers: { 'content-type': contentType } };
        },
      },
    ];
  });
}
