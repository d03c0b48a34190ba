// A thousand empty tests, on the root test the suite builds on or on the public one (FIXTURE_BASE=public).
import { _baseTest, test as publicTest } from '@playwright/test';

const base = process.env.FIXTURE_BASE === 'public' ? publicTest : _baseTest;
for (let i = 0; i < 1000; i++) base(`empty ${i}`, () => {});
