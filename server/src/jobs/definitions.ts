// Every background job the workers run, by name. Each handler calls a service.
import type { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition, ScheduledJob } from './queue';
import { purgeExpiredJob } from './purge-expired.job';
import { sendEmailJob } from './send-email.job';
import { sendPasswordResetJob } from './send-password-reset.job';

export function createJobDefinitions(container: Container): JobDefinition<z.ZodType>[] {
  return [purgeExpiredJob(container), sendEmailJob(container), sendPasswordResetJob(container)];
}

export const scheduledJobs: ScheduledJob[] = [{ name: 'purge-expired', cron: '17 * * * *' }];
