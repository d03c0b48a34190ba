// The JSON schema that validates a check update body (ajv, no type coercion): the Check table of the
// document, each property's rule as data (CU-2..6, FO-4; the offset's upper bound is frequency-offset.ts').
import { CHECK_TYPES, DESCRIPTION_MAX, FREQUENCIES, LOCATIONS, RUNTIME_VERSIONS } from './vocabulary';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const bool = { type: 'boolean' };

export function checkUpdateSchema(): Record<string, unknown> {
  const location = { type: 'string', enum: [...LOCATIONS] };
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
      locations: { type: 'array', minItems: 1, items: location },
      tags: { type: 'array', items: { type: 'string' } },
      alertSettings: nullable({ type: 'object' }),
      groupId: nullable({ type: 'integer' }),
      groupOrder: nullable({ type: 'integer', minimum: 0 }),
      runtimeId: nullable({ type: 'string', enum: [...RUNTIME_VERSIONS] }),
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
      description: nullable({ type: 'string', maxLength: DESCRIPTION_MAX }),
      checkType: { type: 'string', enum: [...CHECK_TYPES] },
      frequency: { type: 'integer', enum: [...FREQUENCIES] },
      frequencyOffset: { type: 'integer', minimum: 1 },
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
