/**
 * Facts stated by the API document (see docs/clauses.md), written once. Expected values in
 * tests come from here, never from the reference service's code, and the clause texts are written
 * from them (clause-text.ts): a value changed here changes every text that states it.
 */
export const RUNTIME_VERSIONS = ['2026.04', '2025.04', '2024.09', '2024.02', '2023.09', '2023.02', '2022.10'] as const;

/** How the document writes a runtime's name, its Node.js version and its end of life (rules.ts holds them as patterns). */
export const RUNTIME_NAME_FORM = 'YYYY.MM';
export const NODE_VERSION_FORM = 'v<major>.<minor>.<patch>';
export const END_OF_LIFE_FORM = 'MM/DD/YYYY';

export const RUNTIME_STAGES = ['ALPHA', 'BETA', 'CURRENT', 'DEPRECATED', 'REMOVED', 'STABLE'] as const;

export const LOCATIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'sa-east-1',
  'eu-west-1',
  'eu-central-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'me-south-1',
  'ap-southeast-1',
  'ap-northeast-1',
  'ap-east-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'af-south-1',
] as const;

/**
 * The document lists "the service" in eighth place, where the brand word was replaced; the published
 * spec has PLAYWRIGHT there, so that is the type we read it as.
 */
export const CHECK_TYPES = [
  'AGENTIC',
  'API',
  'BROWSER',
  'HEARTBEAT',
  'ICMP',
  'MULTI_STEP',
  'TCP',
  'PLAYWRIGHT',
  'TRACEROUTE',
  'URL',
  'DNS',
  'SSL',
  'GRPC',
] as const;

/** The service's known frequencies (minutes), used when the target's spec does not enumerate them. */
export const KNOWN_FREQUENCIES = [0, 1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

export const DESCRIPTION_MAX = 500;

/** Frequency 0 (sub-minute) is for this check type only, with one of these offsets (seconds). */
export const SUB_MINUTE_CHECK_TYPE = 'API';
export const SUB_MINUTE_OFFSETS = [10, 20, 30] as const;

export const DOCUMENTED_RATE_LIMIT = { max: 600, windowSeconds: 60 } as const;

export const DEFAULT_ACCOUNT_HEADER = 'X-Service-Account';

export const AGENT_DEFAULT_PORT = 8081;

export const RUNTIME_PATH = '/v1/runtimes/{id}';

/**
 * What clients ask for: an API client, a browser (in France), Node's fetch, a raw HTTP client, an SDK. Each Accept admits a JSON
 * answer (RFC 9110 media ranges; none at all admits anything), and each language list admits English, so that no correct service has
 * cause for a 406. The document gives the language asked for no meaning: an answer may be in any language, its fields still as the
 * document says. A request is judged alike whichever of them it carries. `null`: no such header.
 */
export const CLIENT_ASKS = [
  { accept: 'application/json', language: null },
  { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', language: 'fr-FR,fr;q=0.9,en;q=0.5' },
  { accept: '*/*', language: '*' },
  { accept: null, language: null },
  { accept: 'application/*', language: 'en-US,en;q=0.9' },
] as const;

export type ClientAsk = { accept: string | null; language: string | null };

/** The headers of a client's ask, `null` where it sends none (the request's own default is then left out). */
export const askHeaders = (a: ClientAsk): Record<string, string | null> => ({ accept: a.accept, 'accept-language': a.language });

/** A client's ask in a title, empty for the plain API client's. */
export const askedIn = (a: ClientAsk): string => {
  const parts = [...(a.accept === 'application/json' ? [] : [`Accept: ${a.accept ?? 'none'}`]), ...(a.language ? [`Accept-Language: ${a.language}`] : [])];
  return parts.length ? ` (${parts.join(', ')})` : '';
};

export const ERROR_WORDING = { 404: 'Not Found', 429: 'Too Many Requests' } as const;

/** "<ACCOUNT_ID> in GUID format": the account header's value as the document writes it, 8-4-4-4-12 hexadecimal digits, any case. */
export const GUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
