// The plumbing every per-tenant cloud job shares, written once: one queued and one running job per
// tenant (stately; CloudWorkQueue sends them keyed by tenant), several tenants side by side, and a
// deadline for the work that ends before pg-boss's expiry, so a slow tenant stops its own calls
// rather than being abandoned mid-write. Which tenants have work at all (gone, inactive, no readable
// secret) is TenantsService.openForWork's rule, applied by the service the job calls.
import type { CloudCallOptions } from '../cloud/cloud-provider';
import type { tenantJobPayload } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

export interface TenantJobSettings {
  concurrency: number;
  expireInSeconds: number;
  // How long before the expiry the work's deadline falls: room to record what was done.
  deadlineMarginSeconds: number;
  retryLimit: number;
  retryDelaySeconds?: number;
}

export function defineTenantJob(
  job: { name: string; payload: typeof tenantJobPayload },
  settings: TenantJobSettings,
  run: (tenantId: string, options: CloudCallOptions) => Promise<void>,
): JobDefinition<typeof tenantJobPayload> {
  const { deadlineMarginSeconds, ...queueSettings } = settings;
  // AbortSignal.timeout takes whole milliseconds.
  const deadlineMs = Math.round((settings.expireInSeconds - deadlineMarginSeconds) * 1000);
  return {
    ...job,
    ...queueSettings,
    policy: 'stately',
    // The work's own deadline, or the queue's signal (the job lost, or the workers stopping) first.
    handle: ({ tenantId }, context) => {
      const deadline = AbortSignal.timeout(deadlineMs);
      return run(tenantId, { signal: context ? AbortSignal.any([deadline, context.signal]) : deadline });
    },
  };
}
