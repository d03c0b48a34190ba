// The closed lists of the check update, as the document gives them.
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

// "the service" in the document is the brand word of PLAYWRIGHT (the published spec says so).
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

export const FREQUENCIES = [0, 1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

export const RUNTIME_VERSIONS = ['2026.04', '2025.04', '2024.09', '2024.02', '2023.09', '2023.02', '2022.10'] as const;

export const DESCRIPTION_MAX = 500;

/** Every property the update reads (the body schema has exactly these); the rest of a body is ignored. */
export const UPDATE_PROPERTIES = [
  'name',
  'activated',
  'muted',
  'doubleCheck',
  'shouldFail',
  'useGlobalAlertSettings',
  'runParallel',
  'locations',
  'tags',
  'alertSettings',
  'groupId',
  'groupOrder',
  'runtimeId',
  'alertChannelSubscriptions',
  'retryStrategy',
  'triggerIncident',
  'description',
  'checkType',
  'frequency',
  'frequencyOffset',
  'scriptPath',
  'environmentVariables',
  'setupSnippetId',
  'tearDownSnippetId',
  'localSetupScript',
  'localTearDownScript',
  'privateLocations',
  'dependencies',
] as const;
