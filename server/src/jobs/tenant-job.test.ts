import { describe, expect, it } from 'vitest';
import type { CloudCallOptions } from '../cloud/cloud-provider';
import { metricsCollectJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

describe('defineTenantJob', () => {
  it('keeps one job per tenant, passes the queue settings on and gives the work a deadline inside the expiry', async () => {
    const calls: Array<[string, CloudCallOptions]> = [];
    const definition = defineTenantJob(
      metricsCollectJob,
      { concurrency: 4, expireInSeconds: 280, deadlineMarginSeconds: 20, retryLimit: 0 },
      async (tenantId, options) => {
        calls.push([tenantId, options]);
      },
    );
    expect(definition).toMatchObject({
      name: 'metrics-collect',
      policy: 'stately',
      concurrency: 4,
      expireInSeconds: 280,
      retryLimit: 0,
    });
    expect(definition).not.toHaveProperty('deadlineMarginSeconds');
    const tenantId = '0b7f2a8e-5c1d-4e3f-9a6b-2d8c4e1f7a90';
    await definition.handle({ tenantId });
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(tenantId);
    expect(calls[0]![1].signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]![1].signal!.aborted).toBe(false);
  });

  it('aborts the work once its deadline has passed', async () => {
    let signal: AbortSignal | undefined;
    const definition = defineTenantJob(
      metricsCollectJob,
      { concurrency: 1, expireInSeconds: 1, deadlineMarginSeconds: 0.95, retryLimit: 0 },
      async (_tenantId, options) => {
        signal = options.signal;
        await new Promise((resolve) => setTimeout(resolve, 200));
      },
    );
    await definition.handle({ tenantId: '0b7f2a8e-5c1d-4e3f-9a6b-2d8c4e1f7a90' });
    expect(signal!.aborted).toBe(true);
  });
});
