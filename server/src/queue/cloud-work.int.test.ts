import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/azure-emulator';
import { createTestDatabase } from '../../test/helper';
import { PgBossCloudWorkQueue, recommendationsAnalyseJob } from './cloud-work';
import { JobQueue } from './queue';

let queue: JobQueue | undefined;
afterAll(() => queue?.stop());

describe('the analyses queued for tenants', () => {
  it('takes every analysis of new metrics (a new tenant’s first) before those asked for by tenants’ bills', async () => {
    const [held, billed, billedToo, newTenant] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    queue = new JobQueue(await createTestDatabase(), { error: () => {}, warn: () => {} });
    // The analysis queue as the workers define it (stately, by tenant), one run at a time.
    await queue.start([
      {
        ...recommendationsAnalyseJob,
        policy: 'stately',
        concurrency: 1,
        pollingIntervalSeconds: 0.5,
        handle: async ({ tenantId }) => {
          started.push(tenantId);
          await new Promise<void>((resolve) => releases.set(tenantId, resolve));
        },
      },
    ]);
    await queue.work();
    const work = new PgBossCloudWorkQueue(queue);
    await work.enqueueRecommendationsAnalysis(held);
    await waitFor(async () => releases.has(held));

    // While one runs: two tenants' bills ask first, then a new tenant's back-fill, then the first
    // billed tenant's collection (its waiting analysis does both, now as one of new metrics).
    await work.enqueueRecommendationsAnalysis(billed, { isBackground: true });
    await work.enqueueRecommendationsAnalysis(billedToo, { isBackground: true });
    await work.enqueueRecommendationsAnalysis(newTenant);
    await work.enqueueRecommendationsAnalysis(billed);
    // Each run ended in turn; the next is whichever the queue gives.
    for (let count = 1; count <= 4; count += 1) {
      await waitFor(async () => started.length === count);
      releases.get(started.at(-1)!)!();
    }
    expect(started).toEqual([held, billed, newTenant, billedToo]);
  });
});
