import { test } from '@playwright/test';

/**
 * The options that place a step at its test. Given a location, Playwright captures no stack trace for
 * the step (a run has a few hundred of them), and the report's snippets show no other file.
 */
export function atTest(): { location: { file: string; line: number; column: number } } {
  const { file, line, column } = test.info();
  return { location: { file, line, column } };
}
