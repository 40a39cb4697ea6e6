// One linter for the repo. Besides the recommended rules it enforces the one-way imports of
// ARCHITECTURE.md: web features never import each other; server routes → services → repositories;
// only server/src/cloud/azure touches the Azure SDK; modules never import jobs/ and only jobs/ imports
// a job handler; contracts imports nothing of ours.
import fs from 'node:fs';
import path from 'node:path';
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

// Every table has one owning module, the only one that writes it (an insert, update or delete,
// through drizzle or in SQL text); other modules call the owner's service, or, to write in their own
// transaction, a function of the owner's that takes the transaction. Reads may join any table. The
// table's SQL name, its export in server/src/db/schema.ts, and the module folder that owns it:
const tableOwners = [
  ['team', 'teams', 'account'],
  ['app_user', 'users', 'account'],
  ['session', 'sessions', 'auth'],
  ['one_time_token', 'oneTimeTokens', 'account'],
  ['invitation', 'invitations', 'team'],
  ['rate_limit_hit', 'rateLimitHits', 'throttle'],
  ['used_captcha_challenge', 'usedCaptchaChallenges', 'captcha'],
  ['tenant', 'tenants', 'tenants'],
  ['subscription', 'subscriptions', 'tenants'],
  ['resource', 'resources', 'resources'],
  ['metric', 'metrics', 'metrics'],
  ['metric_point', 'metricPoints', 'metrics'],
  ['metric_hourly', 'metricHourly', 'metrics'],
  ['metric_day', 'metricDays', 'metrics'],
  ['activity_log', 'activityLogs', 'activity'],
  ['vm_size', 'vmSizes', 'pricing'],
  ['vm_price', 'vmPrices', 'pricing'],
  ['waste_price', 'wastePrices', 'pricing'],
  ['recommendation', 'recommendations', 'recommendations'],
  ['scheduled_change', 'scheduledChanges', 'automation'],
  ['automation_log', 'automationLogs', 'automation'],
  ['cost_day', 'costDays', 'costs'],
  ['cost_month', 'costMonths', 'costs'],
  ['cost_sync', 'costSyncs', 'costs'],
  ['realized_saving', 'realizedSavings', 'costs'],
  ['budget', 'budgets', 'budgets'],
  ['budget_crossing', 'budgetCrossings', 'budgets'],
  ['alert', 'alerts', 'alerts'],
  ['pipeline', 'pipelines', 'pipelines'],
  ['pipeline_version', 'pipelineVersions', 'pipelines'],
  ['pipeline_run', 'pipelineRuns', 'pipelines'],
  ['pipeline_run_item', 'pipelineRunItems', 'pipelines'],
  ['pipeline_streak', 'pipelineStreaks', 'pipelines'],
  ['pipeline_approval', 'pipelineApprovals', 'pipelines'],
  ['pipeline_open_approval', 'pipelineOpenApprovals', 'pipelines'],
  ['team_pipeline_limit', 'teamPipelineLimits', 'pipelines'],
  ['security_finding', 'securityFindings', 'security'],
  ['security_finding_event', 'securityFindingEvents', 'security'],
  ['security_mute_rule', 'securityMuteRules', 'security'],
  ['security_scan', 'securityScans', 'security'],
  ['security_score', 'securityScores', 'security'],
  ['resource_state_dating', 'resourceStateDatings', 'inventory'],
];

// One no-restricted-syntax entry for all the server's files, listing every table's writes, then one
// per module folder listing those of the tables it does not own, which replaces the first for its
// files (a later entry replaces an earlier one's options for the same rule). Scheduled changes are stricter: outside
// automation, not even read (the per-VM lock and the one-in-flight rule cannot be walked around).
function tableWriteSelectors(module) {
  const owners = [...new Set(tableOwners.map(([, , owner]) => owner))].filter((owner) => owner !== module);
  const selectors = owners.flatMap((owner) => {
    const owned = tableOwners.filter(([, , o]) => o === owner);
    const message = `${owned.map(([table]) => table).join(', ')}: only modules/${owner} writes ${owned.length > 1 ? 'these tables' : 'this table'}; call its service.`;
    const exports = owned.map(([, name]) => name).join('|');
    const tables = owned.map(([table]) => table).join('|');
    return [
      {
        selector: `CallExpression[callee.property.name=/^(insert|update|delete)$/] > Identifier.arguments[name=/^(${exports})$/]`,
        message,
      },
      {
        selector: `TemplateElement[value.raw=/\\b(insert\\s+into|update|delete\\s+from)\\s+(${tables})\\b/i]`,
        message,
      },
    ];
  });
  if (module === 'automation') return selectors;
  const scheduledChanges = 'Only modules/automation touches scheduled changes; call AutomationService.';
  return [
    ...selectors,
    { selector: "ImportSpecifier[imported.name='scheduledChanges']", message: scheduledChanges },
    { selector: 'TemplateElement[value.raw=/scheduled_change/]', message: scheduledChanges },
  ];
}

const serverModules = fs
  .readdirSync(path.join(import.meta.dirname, 'server/src/modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// Schema defines every table; tests and their fixtures set up the rows they need.
const notWriters = ['server/src/db/schema.ts', 'server/src/**/*.test.ts', 'server/src/**/testing/**'];
const tableWriteRules = [
  {
    files: ['server/src/**/*.ts'],
    ignores: notWriters,
    rules: { 'no-restricted-syntax': ['error', ...tableWriteSelectors(undefined)] },
  },
  ...serverModules.map((module) => ({
    files: [`server/src/modules/${module}/**/*.ts`],
    ignores: notWriters,
    rules: { 'no-restricted-syntax': ['error', ...tableWriteSelectors(module)] },
  })),
];

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
  ...tableWriteRules,
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
