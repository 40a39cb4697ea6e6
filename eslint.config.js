// One linter for the repo. Besides the recommended rules it enforces the one-way imports of
// ARCHITECTURE.md: web features never import each other; server routes → services → repositories;
// only server/src/cloud/azure touches the Azure SDK; contracts imports nothing of ours.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { featureBoundaries, webBoundariesPlugin } from './web/lint/import-boundaries.js';

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
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'web-boundaries': webBoundariesPlugin },
    rules: { 'web-boundaries/no-outside-imports': 'error' },
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
    // Automation is the one writer of scheduled changes (plan, claim, send, log): every other module
    // asks it, so the per-VM lock and the one-in-flight rule cannot be walked around.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/modules/automation/**', 'server/src/db/schema.ts', 'server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportSpecifier[imported.name='scheduledChanges']",
          message: 'Only modules/automation touches scheduled changes; call AutomationService.',
        },
        {
          selector: 'TemplateElement[value.raw=/scheduled_change/]',
          message: 'Only modules/automation touches scheduled changes; call AutomationService.',
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
