/**
 * A test's attachment, as `testInfo.attach` makes it but without the step that call records: a captured
 * stack trace and two messages to the runner each, and a default run attaches several hundred (every
 * test: what it tried, its requests and their observations). The report shows the attachment the same.
 */
import type { TestInfo } from '@playwright/test';

export function attachText(info: TestInfo, name: string, body: string, contentType: 'text/plain' | 'application/json' = 'text/plain'): void {
  info.attachments.push({ name, contentType, body: Buffer.from(body) });
}

export const attachJson = (info: TestInfo, name: string, value: unknown) => attachText(info, name, JSON.stringify(value), 'application/json');
