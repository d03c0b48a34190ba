// The seven runtimes, with realistic data: real Node.js versions and real package versions.
export const STAGES = ['ALPHA', 'BETA', 'CURRENT', 'DEPRECATED', 'REMOVED', 'STABLE'] as const;

export interface Runtime {
  name: string;
  multiStepSupport: boolean;
  nodeJsVersion: string;
  stage?: (typeof STAGES)[number];
  runtimeEndOfLife?: string;
  description?: string;
  dependencies: Record<string, string>;
}

export const RUNTIMES: readonly Runtime[] = [
  {
    name: '2026.04', multiStepSupport: true, nodeJsVersion: 'v24.13.1', stage: 'CURRENT',
    description: 'Main updates are Playwright 1.58.2 and Node.js 24',
    dependencies: {
      '@playwright/test': '1.58.2', playwright: '1.58.2', axios: '1.13.2', chai: '5.2.0', lodash: '4.17.21',
      moment: '2.30.1', uuid: '11.1.0', 'date-fns': '4.1.0', dotenv: '16.5.0', jsonwebtoken: '9.0.2',
      'form-data': '4.0.4', 'crypto-js': '4.2.0', '@faker-js/faker': '9.9.0', 'otpauth': '9.4.0', ws: '8.18.3',
    },
  },
  {
    name: '2025.04', multiStepSupport: true, nodeJsVersion: 'v22.14.0', stage: 'STABLE',
    description: 'Main updates are Playwright 1.51.1 and Node.js 22',
    dependencies: {
      '@playwright/test': '1.51.1', playwright: '1.51.1', axios: '1.8.4', chai: '5.2.0', lodash: '4.17.21',
      moment: '2.30.1', uuid: '11.1.0', 'date-fns': '4.1.0', dotenv: '16.4.7', jsonwebtoken: '9.0.2',
      'form-data': '4.0.2', 'crypto-js': '4.2.0', '@faker-js/faker': '9.6.0', ws: '8.18.1',
    },
  },
  {
    name: '2024.09', multiStepSupport: true, nodeJsVersion: 'v20.17.0', stage: 'STABLE',
    description: 'Main updates are Playwright 1.47.0 and Node.js 20',
    dependencies: {
      '@playwright/test': '1.47.0', playwright: '1.47.0', axios: '1.7.7', chai: '4.5.0', lodash: '4.17.21',
      moment: '2.30.1', uuid: '10.0.0', 'date-fns': '3.6.0', dotenv: '16.4.5', jsonwebtoken: '9.0.2',
      'form-data': '4.0.0', 'crypto-js': '4.2.0', '@faker-js/faker': '8.4.1',
    },
  },
  {
    name: '2024.02', multiStepSupport: true, nodeJsVersion: 'v18.19.1', stage: 'DEPRECATED', runtimeEndOfLife: '03/31/2027',
    description: 'Main updates are Playwright 1.41.2 and Node.js 18',
    dependencies: {
      '@playwright/test': '1.41.2', playwright: '1.41.2', axios: '1.6.7', chai: '4.4.1', lodash: '4.17.21',
      moment: '2.30.1', uuid: '9.0.1', 'date-fns': '3.3.1', dotenv: '16.4.1', jsonwebtoken: '9.0.2',
      'form-data': '4.0.0', 'crypto-js': '4.2.0',
    },
  },
  {
    name: '2023.09', multiStepSupport: true, nodeJsVersion: 'v18.18.0', stage: 'DEPRECATED', runtimeEndOfLife: '12/31/2026',
    description: 'Main updates are Playwright 1.38.0 and Node.js 18',
    dependencies: {
      '@playwright/test': '1.38.0', playwright: '1.38.0', axios: '1.5.0', chai: '4.3.8', lodash: '4.17.21',
      moment: '2.29.4', uuid: '9.0.1', 'date-fns': '2.30.0', dotenv: '16.3.1', jsonwebtoken: '9.0.2',
      'form-data': '4.0.0',
    },
  },
  {
    name: '2023.02', multiStepSupport: false, nodeJsVersion: 'v16.19.1', stage: 'REMOVED', runtimeEndOfLife: '06/30/2026',
    description: 'Main updates are Playwright 1.30.0 and Node.js 16',
    dependencies: {
      '@playwright/test': '1.30.0', playwright: '1.30.0', axios: '1.3.2', chai: '4.3.7', lodash: '4.17.21',
      moment: '2.29.4', uuid: '9.0.0', 'date-fns': '2.29.3', dotenv: '16.0.3', jsonwebtoken: '9.0.0',
    },
  },
  {
    name: '2022.10', multiStepSupport: false, nodeJsVersion: 'v16.17.1', stage: 'REMOVED', runtimeEndOfLife: '02/28/2026',
    description: 'Main updates are Playwright 1.28.0 and Node.js 16',
    dependencies: {
      '@playwright/test': '1.28.0', playwright: '1.28.0', axios: '0.27.2', chai: '4.3.6', lodash: '4.17.21',
      moment: '2.29.4', uuid: '9.0.0', 'date-fns': '2.29.3', dotenv: '16.0.3', jsonwebtoken: '8.5.1',
    },
  },
];

export const RUNTIME_IDS: readonly string[] = RUNTIMES.map((r) => r.name);
