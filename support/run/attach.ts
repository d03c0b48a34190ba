/** An attachment as `testInfo.attach` makes it, without the step it records (a stack trace each, and a run attaches several hundred). */
import type { TestInfo } from '@playwright/test';

export function attachText(info: TestInfo, name: string, body: string, contentType: 'text/plain' | 'application/json' = 'text/plain'): void {
  info.attachments.push({ name, contentType, body: Buffer.from(body) });
}

export const attachJson = (info: TestInfo, name: string, value: unknown) => attachText(info, name, JSON.stringify(value), 'application/json');
