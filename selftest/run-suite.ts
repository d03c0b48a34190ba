// Moved to scripts/suite-runner.ts (compare mode uses it too); kept while helpers' scratch scripts import it.
export * from '../scripts/suite-runner';
