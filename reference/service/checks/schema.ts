// The JSON schema that validates a check update body (ajv, no type coercion). The CU/FO faults
// loosen it here, so a fault is one line and the route stays unchanged.
import type { Faults } from '../../faults';
import { CHECK_TYPES, DESCRIPTION_MAX, FREQUENCIES, LOCATIONS, RUNTIME_VERSIONS } from './vocabulary';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const bool = { type: 'boolean' };
// ind-cu-location-pattern: what a location looks like, instead of the list of the 22.
const LOCATION_SHAPE = { type: 'string', pattern: '^(us|ca|sa|eu|me|ap|af)-(north|south|east|west|central|northeast|southeast)-[1-9]$' };

/** ind7-cu-runtime-range-check: the form YYYY.MM here, the range (oldest..newest) in the route. */
const runtimeIdSchema = (faults: Faults) =>
  faults.has('ind7-cu-runtime-range-check') ? { type: 'string', pattern: '^[0-9]{4}\\.[0-9]{2}$' } : { type: 'string', enum: [...RUNTIME_VERSIONS] };

export function checkUpdateSchema(faults: Faults): Record<string, unknown> {
  const location = faults.has('cu-unknown-location') ? { type: 'string', minLength: 1 } : { type: 'string', enum: [...LOCATIONS] };
  const offset: Record<string, unknown> = faults.has('fo-string-offset')
    ? {
        anyOf: [
          { type: 'integer', minimum: 1 },
          { type: 'string', pattern: '^[0-9]+$' },
        ],
      }
    : { type: faults.has('fo-fractional') ? 'number' : 'integer', minimum: faults.has('fo-offset-zero') ? 0 : 1 };
  return {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      activated: bool,
      muted: bool,
      doubleCheck: bool,
      shouldFail: bool,
      useGlobalAlertSettings: bool,
      runParallel: bool,
      // ind8-cu-locations-contains: "the values come from this list" written as contains, which asks for one of them only.
      locations: faults.has('ind8-cu-locations-contains')
        ? { type: 'array', minItems: 1, items: { type: 'string' }, contains: location }
        : {
            type: 'array',
            minItems: faults.has('cu-empty-locations') ? 0 : 1,
            items: faults.has('ind-cu-location-pattern') ? LOCATION_SHAPE : location,
          },
      tags: { type: 'array', items: { type: 'string' } },
      alertSettings: nullable({ type: 'object' }),
      groupId: nullable({ type: 'integer' }),
      // ind7-cu-grouporder-zero-refused: "position in its group" read as 1-based.
      groupOrder: nullable({ type: 'integer', minimum: faults.has('cu-negative-grouporder') ? -1 : faults.has('ind7-cu-grouporder-zero-refused') ? 1 : 0 }),
      runtimeId: nullable(faults.has('cu-unknown-runtime') ? { type: 'string' } : runtimeIdSchema(faults)),
      alertChannelSubscriptions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['alertChannelId', 'activated'],
          properties: { alertChannelId: { type: 'number' }, activated: bool },
        },
      },
      retryStrategy: nullable({
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'] },
          baseBackoffSeconds: { type: 'number', minimum: 0 },
          maxRetries: { type: 'number', minimum: 1, maximum: 10 },
          maxDurationSeconds: { type: 'number', minimum: 0, maximum: 600 },
          sameRegion: bool,
        },
      }),
      triggerIncident: nullable({ type: 'object' }),
      description: nullable({ type: 'string', maxLength: faults.has('cu-description-501') ? DESCRIPTION_MAX + 1 : DESCRIPTION_MAX }),
      checkType: faults.has('cu-unknown-checktype') ? { type: 'string' } : { type: 'string', enum: [...CHECK_TYPES] },
      frequency: { type: 'integer', enum: [...FREQUENCIES] },
      // ind-fo-null-offset: declared nullable like its neighbours (and null then read as "unchanged").
      frequencyOffset: faults.has('ind-fo-null-offset') ? nullable(offset) : offset,
      scriptPath: nullable({ type: 'string' }),
      environmentVariables: {
        type: 'array',
        maxItems: 100,
        items: { type: 'object', required: ['key', 'value'], properties: { key: { type: 'string', minLength: 1 }, value: { type: 'string' } } },
      },
      setupSnippetId: nullable({ type: 'number' }),
      tearDownSnippetId: nullable({ type: 'number' }),
      localSetupScript: nullable({ type: 'string' }),
      localTearDownScript: nullable({ type: 'string' }),
      privateLocations: nullable({ type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } }),
      dependencies: nullable({ type: 'array' }),
    },
  };
}
