// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/** Where knex and Objection may appear: the data layer (`shared/db`), the services over it (`shared/domain`), and what runs beside them. */
const DATA_ACCESS = [
  { name: 'knex', message: 'Data access lives in shared/domain: call a service function.' },
  { name: 'objection', message: 'Data access lives in shared/domain: call a service function.' },
];

/** SQL written in place: a table call on a knex handle, raw SQL, a transaction, or an Objection model's query. */
const SQL_IN_PLACE = [
  { selector: "CallExpression[callee.type='Identifier'][callee.name=/^(db|trx|knex)$/]", message: 'SQL belongs in shared/domain.' },
  { selector: "CallExpression[callee.property.name='raw']", message: 'SQL belongs in shared/domain.' },
  { selector: "CallExpression[callee.property.name='transaction']", message: 'Transactions belong in shared/domain.' },
  {
    selector: "CallExpression[callee.property.name='query'][callee.object.name=/^[A-Z]/]",
    message: 'Model queries belong in shared/domain.',
  },
];

/**
 * Per-request getters on an object literal (or defined with Object.defineProperty) are closures V8
 * keeps in a hidden class of their own in the old generation: everything the request reached then
 * survives every young-generation collection until a full one. Use a class with prototype getters.
 */
const GETTERS_IN_LITERALS = [
  {
    selector: "ObjectExpression > Property[kind='get']",
    message: 'Use a class with a getter: a getter in a literal keeps its request alive until a full GC.',
  },
  {
    selector: "CallExpression[callee.object.name='Object'][callee.property.name=/^definePropert(y|ies)$/]",
    message: 'Use a class with a getter: a property defined per object keeps its request alive until a full GC.',
  },
];

/**
 * The layers, so that an editor flags a breach where it is typed. Arrows point one way: api/ and
 * activities/ call shared/; shared/db knows nothing above it; domain/common knows no resource; the
 * Temporal contract holds no domain code; workflows see only the workflow SDK and the contracts.
 */
const layers = {
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: [
        {
          target: ['./api', './activities'],
          from: './shared/db',
          except: ['./knex.ts', './team-wall.ts'],
          message: 'Models and SQL live in shared/domain: call a service function (the Db handle and the team wall are the exceptions).',
        },
        {
          target: './api',
          from: ['./activities', './workflows', './worker'],
          message: 'The gateway starts workflows through shared/temporal.',
        },
        { target: './activities', from: ['./api', './workflows', './worker'], message: 'Activities call shared/ only.' },
        {
          target: './shared',
          from: ['./api', './activities', './workflows', './worker', './scripts', './bench', './test'],
          message: 'shared/ depends on nothing of ours above it.',
        },
        {
          target: './shared/db',
          from: ['./shared/domain', './shared/temporal', './shared/providers'],
          message: 'shared/db is the bottom layer: the domain imports it, never the other way.',
        },
        {
          target: './shared/domain/common',
          from: './shared/domain',
          except: ['./common'],
          message: 'domain/common is what every resource uses: it imports none of them.',
        },
        {
          target: './shared/temporal',
          from: ['./shared/domain', './shared/db'],
          message: 'The Temporal contract holds ids, types and definitions: the domain calls it, not the other way.',
        },
      ],
    },
  ],
  'import-x/no-cycle': ['error', { ignoreExternal: true }],
};

export default tseslint.config(
  // .ci/ holds the CI's bash and a plain script node runs on jest's results: outside the TypeScript project.
  // The client's schema.d.ts is openapi-typescript's output (npm run sdk:generate), checked against the document instead.
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.data/',
      '.tools/',
      'coverage/',
      'test/fixtures/',
      '.ci/',
      '*.mjs',
      '*.js',
      'clients/typescript/src/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      // The modules import-x reads to follow imports (no-cycle): without .ts here it reads none of ours and finds no cycle.
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // Style, not safety: `() => log(x)` reads fine.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      ...layers,
    },
  },
  {
    files: ['api/**/*.ts', 'activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: DATA_ACCESS }],
      'no-restricted-syntax': ['error', ...SQL_IN_PLACE, ...GETTERS_IN_LITERALS],
    },
  },
  {
    files: ['shared/**/*.ts', 'worker/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...GETTERS_IN_LITERALS] },
  },
  {
    // Bundled for Temporal's deterministic sandbox: the workflow SDK, the contracts, and types of the activities they call.
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!@temporalio/workflow$)[^.]', message: 'Workflows import only @temporalio/workflow of the packages.' },
            {
              regex: '^\\.\\./activities/',
              allowTypeImports: true,
              message: 'Workflows call activities through proxyActivities: import their types only.',
            },
            {
              regex: '^\\.\\./(?!activities/|shared/temporal/(contract|search-attribute-keys|[\\w-]+/contract)$)',
              message: 'Workflows import only the contracts in shared/temporal (and activity types).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests assert on JSON bodies as a client receives them: untyped by nature. Explicit `any` stays banned.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `let api: TestApi` is set in beforeAll; when that failed, afterAll's `api?.stop()` is exactly right.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  prettier,
);
