/** Reporters for `npx playwright merge-reports --config examples/merge.config.ts <blob folder>`. */
export default {
  testDir: '../tests',
  reporter: [
    ['html', { outputFolder: '../reports/html', open: 'never' }],
    ['../reporters/clause-matrix.ts', { outputDir: '../reports' }],
  ],
};
