// Every background job the workers run, by name. Each handler calls a service.
import type { z } from 'zod';
import type { Container } from '../container';
import { activeHoursJob, createActiveHoursJob } from './active-hours.job';
import { automationDispatchJob, automationGuardJob } from '../queue/automation-work';
import { createAutomationExecuteJob } from './automation-execute.job';
import { createAutomationDispatchJob, createAutomationGuardJob } from './automation-schedule.job';
import {
  costSyncAllJob,
  inventorySyncAllJob,
  metricsCollectAllJob,
  metricsPurgeJob,
  pricingRefreshJob,
} from '../queue/cloud-work';
import { createCostSyncAllJob } from './cost-sync-all.job';
import { createCostSyncJob } from './cost-sync.job';
import type { JobDefinition, ScheduledJob } from '../queue/queue';
import { createInventorySyncAllJob } from './inventory-sync-all.job';
import { createInventorySyncJob } from './inventory-sync.job';
import { createMetricsBackfillJob } from './metrics-backfill.job';
import { createMetricsCollectAllJob } from './metrics-collect-all.job';
import { createMetricsCollectJob } from './metrics-collect.job';
import { createMetricsPurgeJob } from './metrics-purge.job';
import { createPipelineTickJob } from './pipeline-tick.job';
import { createPipelinePurgeJob } from './pipeline-purge.job';
import { createPipelineRunJob } from './pipeline-run.job';
import { pipelinePurgeJob, pipelineTickJob } from '../queue/pipeline-work';
import { createPricingRefreshJob } from './pricing-refresh.job';
import { createRecommendationsAnalyseJob } from './recommendations-analyse.job';
import { createPurgeExpiredJob, purgeExpiredJob } from './purge-expired.job';
import { createSendEmailJob } from './send-email.job';
import { createSendPasswordResetJob } from './send-password-reset.job';

export function createJobDefinitions(container: Container): JobDefinition<z.ZodType>[] {
  return [
    createPurgeExpiredJob(container),
    createSendEmailJob(container),
    createSendPasswordResetJob(container),
    ...createCloudJobs(container),
  ];
}

function createCloudJobs(container: Container): JobDefinition<z.ZodType>[] {
  return [
    createInventorySyncJob(container),
    createInventorySyncAllJob(container),
    createMetricsCollectJob(container),
    createMetricsCollectAllJob(container),
    createMetricsBackfillJob(container),
    createMetricsPurgeJob(container),
    createPricingRefreshJob(container),
    createRecommendationsAnalyseJob(container),
    createAutomationExecuteJob(container),
    createAutomationDispatchJob(container),
    createAutomationGuardJob(container),
    createActiveHoursJob(container),
    createCostSyncJob(container),
    createCostSyncAllJob(container),
    createPipelineTickJob(container),
    createPipelinePurgeJob(container),
    createPipelineRunJob(container),
  ];
}

export const scheduledJobs: ScheduledJob[] = [
  { name: purgeExpiredJob.name, cron: '17 * * * *' },
  { name: inventorySyncAllJob.name, cron: '*/15 * * * *' },
  { name: metricsCollectAllJob.name, cron: '*/5 * * * *' },
  { name: metricsPurgeJob.name, cron: '41 * * * *' },
  { name: pricingRefreshJob.name, cron: '23 4 * * *' },
  { name: automationDispatchJob.name, cron: '* * * * *' },
  { name: automationGuardJob.name, cron: '*/5 * * * *' },
  { name: activeHoursJob.name, cron: '* * * * *' },
  { name: costSyncAllJob.name, cron: '* * * * *' },
  { name: pipelineTickJob.name, cron: '* * * * *' },
  { name: pipelinePurgeJob.name, cron: '37 3 * * *' },
];
