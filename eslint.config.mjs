// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // .ci/ holds the CI's bash and a plain script node runs on jest's results: outside the TypeScript project.
  { ignores: ['node_modules/', 'dist/', '.data/', '.tools/', 'coverage/', 'test/fixtures/', '.ci/', '*.mjs', '*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // Style, not safety: `() => log(x)` reads fine.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests assert on JSON bodies as a client receives them: untyped by nature. Explicit `any` stays banned.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `let api: TestApi` is set in beforeAll; when that failed, afterAll's `api?.stop()` is exactly right.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  prettier,
);
