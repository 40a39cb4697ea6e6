// One linter for the repo. Besides the recommended rules it enforces the one-way imports of
// ARCHITECTURE.md: web features never import each other; server routes → services → repositories;
// only server/src/cloud/azure touches the Azure SDK; modules never import jobs/ and only jobs/ imports
// a job handler; contracts imports nothing of ours.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { featureBoundaries, webBoundariesPlugin } from './web/lint/import-boundaries.js';

// The server's no-restricted-imports patterns, combined per kind of file below.
const azureSdk = { group: ['@azure/*'], message: 'Only server/src/cloud/azure imports the Azure SDK.' };
const jobHandlers = {
  regex: '\\.job$',
  message: 'Only jobs/ imports a job handler; enqueue by the job names in queue/.',
};
const jobsFolder = {
  regex: '(^|/)jobs/',
  message: 'Modules sit below jobs/: the queue and the job names are in queue/.',
};
const repositories = {
  regex: '\\.repository$',
  message: 'Routes and job handlers reach the data through a service, never a repository.',
};
const routes = { regex: '\\.routes$', message: 'Services and repositories never import routes.' };
const routesAndServices = {
  regex: '\\.(routes|service)$',
  message: 'Repositories sit below services and routes.',
};

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
  // Server imports. ESLint's flat config lets a later entry replace an earlier one's options for the
  // same rule, so every entry below lists all the patterns that hold for its files, from the widest
  // files to the narrowest (server/test/import-rules.test.ts proves each still holds where they overlap).
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/cloud/azure/**', 'server/src/jobs/**', 'server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [azureSdk, jobHandlers] }] },
  },
  {
    files: ['server/src/**/*.test.ts'],
    ignores: ['server/src/cloud/azure/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [azureSdk] }] },
  },
  {
    files: ['server/src/jobs/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [azureSdk, repositories] }] },
  },
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [azureSdk, jobHandlers, jobsFolder] }] },
  },
  {
    files: ['server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [azureSdk, jobHandlers, jobsFolder, repositories] }],
    },
  },
  {
    files: ['server/src/**/*.service.ts'],
    ignores: ['server/src/cloud/azure/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [azureSdk, jobHandlers, jobsFolder, routes] }] },
  },
  {
    files: ['server/src/**/*.repository.ts'],
    ignores: ['server/src/cloud/azure/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [azureSdk, jobHandlers, jobsFolder, routesAndServices] },
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
  {
    // Files that do one job (issue 24 §2): the pipelines module's stay within 400 lines of code.
    files: ['server/src/modules/pipelines/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
);
