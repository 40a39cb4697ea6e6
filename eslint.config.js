// One linter for the repo. Besides the recommended rules it enforces the one-way imports of
// ARCHITECTURE.md: web features never import each other; server routes → services → repositories;
// only server/src/cloud/azure touches the Azure SDK; contracts imports nothing of ours.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const webFeatures = [
  'auth',
  'account',
  'team',
  'tenants',
  'resources',
  'activity',
  'search',
  'metrics',
  'automation',
  'schedule',
  'recommendations',
  'home',
  'sandbox',
];

const featureBoundaries = webFeatures.map((feature) => ({
  files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(features/)?(?!${feature}/)(${webFeatures.join('|')})/`,
            message: 'Web features never import each other; lift shared code to src/components or src/lib.',
          },
          { regex: '^(\\.\\./)+app/', message: 'Features do not import the app layer.' },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'server/drizzle/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  ...featureBoundaries,
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)/',
              message: 'Shared code does not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/cloud/azure/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@azure/*'], message: 'Only server/src/cloud/azure imports the Azure SDK.' }],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.repository.ts', 'server/src/**/*.service.ts'],
    ignores: ['server/src/cloud/azure/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '\\.routes$', message: 'Services and repositories never import routes.' },
            { group: ['@azure/*'], message: 'Only server/src/cloud/azure imports the Azure SDK.' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '\\.(routes|service)$', message: 'Repositories sit below services and routes.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@cloudtrim/*'], message: 'Contracts import nothing of ours.' }] },
      ],
    },
  },
);
