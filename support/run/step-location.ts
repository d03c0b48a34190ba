import { test } from '@playwright/test';

/** A step placed at its test: given a location, Playwright captures no stack trace for it. */
export function atTest(): { location: { file: string; line: number; column: number } } {
  const { file, line, column } = test.info();
  return { location: { file, line, column } };
}
