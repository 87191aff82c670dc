import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O libraries.
const forbiddenInWorkflows = [
  ...[
    'assert',
    'buffer',
    'child_process',
    'cluster',
    'crypto',
    'dgram',
    'dns',
    'events',
    'fs',
    'fs/promises',
    'http',
    'http2',
    'https',
    'net',
    'os',
    'path',
    'perf_hooks',
    'process',
    'readline',
    'stream',
    'timers',
    'tls',
    'url',
    'util',
    'v8',
    'vm',
    'worker_threads',
    'zlib',
  ].flatMap((name) => [name, `node:${name}`]),
  'pino',
  'express',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.data/**',
      '.cache/**',
      'coverage/**',
      '*.config.js',
      '*.config.mjs',
      'test/setup/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The workflow side of tracing is bundled as workflow code too.
    files: ['workflows/**/*.ts', 'src/temporal/tracing-interceptors.ts', 'src/temporal/sdk-internals.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: forbiddenInWorkflows.map((name) => ({
            name,
            message: 'Workflow code must stay deterministic.',
          })),
          patterns: [
            {
              regex: '(^|/)src/(?!domain/)',
              message: 'Workflows import only src/domain (operator calls are activities).',
            },
            {
              group: ['**/activities/*', '**/activities'],
              allowTypeImports: true,
              message: 'Import activities with `import type` only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The bottom layer: bundled into workflows and imported by every other layer, so it imports nothing else.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...forbiddenInWorkflows, 'zod'].map((name) => ({
            name,
            message: 'src/domain is workflow-safe and imports nothing outside itself.',
          })),
          patterns: [
            {
              // @temporalio/common is workflow-safe: the search attribute keys are defined with it.
              group: ['@temporalio/*', '!@temporalio/common', '../*'],
              message:
                'src/domain is workflow-safe and imports nothing outside itself (but @temporalio/common).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/secrets/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(?!domain/)', message: 'src/secrets imports only src/domain.' }] },
      ],
    },
  },
  {
    // Configuration sits under everything that reads it: it imports only src/domain, src/secrets and itself.
    files: ['src/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '(^|/)(workflows|activities)(/|$)|^\\.\\./(sandbox|operator|client|temporal|api|webhooks|observability|logging|http|entry)(/|$)',
              message: 'config imports only src/domain, src/secrets and its own helpers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/config/*'],
              importNamePattern: '^load',
              message: 'Activities get their configuration through ActivityDeps.',
            },
          ],
        },
      ],
    },
  },
  {
    // The SDK's internals move between its releases: one module imports them, so an upgrade is fixed there.
    files: ['**/*.ts'],
    ignores: ['src/temporal/sdk-internals.ts', 'test/helpers/histories.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@temporalio/*/lib/*'],
              message: 'Import the SDK internals from src/temporal/sdk-internals.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
