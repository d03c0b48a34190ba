// Lint: ESLint's and typescript-eslint's recommended rules over all our TypeScript. Formatting is
// Prettier's job (.prettierrc.json), so no style rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'docs/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // Unused arguments and caught errors are named with a leading underscore on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Playwright's fixture signature starts with an empty destructuring pattern ({}, use) by design.
      'no-empty-pattern': 'off',
    },
  },
  {
    // CommonJS launchers run by plain node (no TypeScript loader): node's globals and require.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
