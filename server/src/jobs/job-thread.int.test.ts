import { count, eq } from 'drizzle-orm';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  waitFor,
  type CloudTestContext,
} from '../../test/azure-emulator';
import { createUser } from '../../test/helper';
import { resources } from '../db/schema';
import { ForegroundGauge } from '../lib/foreground';
import { startJobThread } from './job-thread';

let context: CloudTestContext;
const crashes: Error[] = [];

beforeAll(async () => {
  // No workers in this thread: only the job thread works the queue off.
  context = await createCloudTestContext();
});
afterAll(() => context.close());

describe('the job thread', () => {
  it("works off a new tenant's inventory sync on its own thread, then stops cleanly", async () => {
    // An API request that never ends: the thread gives way to it at each connection and yield, a
    // bounded time each, and still gets its work done.
    const foreground = new ForegroundGauge();
    foreground.enter();
    const thread = await startJobThread(
      {
        config: context.config,
        secrets: context.secrets,
        databaseUrl: context.databaseUrl,
        isScheduling: false,
        foreground: foreground.buffer,
      },
      (error) => crashes.push(error),
    );
    try {
      const owner = await createUser(context);
      const tenantId = await connectTenant(context, owner.teamId);
      const synced = await waitFor(async () => {
        const [row] = await context.container.database.db
          .select({ total: count() })
          .from(resources)
          .where(eq(resources.tenantId, tenantId));
        return row!.total > 0 && row!.total;
      });
      expect(synced).toBeGreaterThan(0);
      // The secret sealed by this thread opened in the job thread, with the same key: the sync
      // (whose first subscription's resources are in) ends OK.
      const tenant = await waitFor(async () => {
        const [listed] = await context.container.tenants.listTenants(owner.teamId);
        return listed?.Status !== 'Pending' && listed;
      });
      expect(tenant).toMatchObject({ Status: 'OK' });
      // Its sessions say whose they are in PostgreSQL's activity, for the operator reading it.
      const { rows } = await context.container.database.pool.query<{ count: number }>(
        `select count(*)::int as count from pg_stat_activity where application_name = 'cloudtrim jobs'`,
      );
      expect(rows[0]!.count).toBeGreaterThan(0);
      // The job thread gives way to the API's: on Linux its nice value is raised, this thread's kept.
      if (process.platform === 'linux') {
        expect(threadNiceValues()).toContain(os.constants.priority.PRIORITY_BELOW_NORMAL);
        expect(readNice(`/proc/self/task/${process.pid}/stat`)).toBe(os.getPriority());
      }
    } finally {
      await thread.stop();
    }
    expect(crashes).toEqual([]);
  });

  it('refuses to start against a database it cannot reach, saying why', async () => {
    await expect(
      startJobThread(
        {
          config: context.config,
          secrets: context.secrets,
          databaseUrl: 'postgres://nobody:none@127.0.0.1:1/none',
          isScheduling: false,
          foreground: new ForegroundGauge().buffer,
        },
        (error) => crashes.push(error),
      ),
    ).rejects.toThrow(/The job thread failed: .*ECONNREFUSED/s);
  });
});

// The nice value of each thread of this process (field 19 of /proc/<pid>/task/<tid>/stat).
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((thread) => readNice(`/proc/self/task/${thread}/stat`));
}

function readNice(statPath: string): number {
  const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[16]);
}
