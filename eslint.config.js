// ESLint with typescript-eslint: the recommended rules, plus the type-aware rules that matter in a code
// base that is mostly async I/O (a promise nobody awaits, a promise where a callback's result is ignored).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'reports/', 'coverage/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // undici's index loads fetch, WebSocket, caches and mocks the suite never uses: values come from
    // src/client/undici-core.ts, which loads only undici's dispatchers; a type import loads nothing.
    files: ['src/**/*.ts', 'suites/**/*.ts'],
    ignores: ['src/client/undici-core.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'undici', message: 'import undici values from src/client/undici-core.ts', allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
