// pg-boss behind one module: job definitions are named files (id, payload schema, handler) that
// call services; the API role only sends, the worker role also works.
import { PgBoss, type SendOptions } from 'pg-boss';
import type { z } from 'zod';

export interface JobDefinition<Payload extends z.ZodType> {
  name: string;
  payload: Payload;
  retryLimit?: number;
  retryDelaySeconds?: number;
  // Retries back off exponentially from retryDelaySeconds; this caps the wait between two of them.
  retryDelayMaxSeconds?: number;
  // Jobs over this run time are failed and retried; every Azure-bound job sets its own.
  expireInSeconds?: number;
  // How often an idle worker looks for jobs (pg-boss's default 2 s; at least 0.5 s).
  pollingIntervalSeconds?: number;
  // Jobs of this queue run side by side in each worker process (per-tenant work must not queue
  // behind one slow tenant).
  concurrency?: number;
  // A worker sends a heartbeat this often (at least 10 s); a job whose worker died (SIGKILL, lost
  // host) is failed and retried once it lapses, rather than when the job's whole expiry has passed.
  heartbeatSeconds?: number;
  // 'stately' with a singletonKey keeps at most one queued and one running job per key.
  policy?: 'standard' | 'stately';
  handle(payload: z.infer<Payload>): Promise<void>;
}

export interface ScheduledJob {
  name: string;
  cron: string;
  payload?: object;
}

interface Logger {
  error(object: object, message: string): void;
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  private isStarted = false;

  // A queue that only sends (the API's) leaves pg-boss's upkeep (maintenance, cron) to the workers'.
  constructor(
    databaseUrl: string,
    private readonly log: Logger,
    { isSendOnly = false }: { isSendOnly?: boolean } = {},
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: 'pgboss',
      supervise: !isSendOnly,
      schedule: !isSendOnly,
      // The pass that fails jobs whose heartbeat lapsed runs this often (pg-boss's default is 60 s).
      superviseIntervalSeconds: 10,
      monitorIntervalSeconds: 10,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  async start(definitions: JobDefinition<z.ZodType>[]): Promise<void> {
    await this.boss.start();
    this.isStarted = true;
    for (const definition of definitions) {
      this.definitions.set(definition.name, definition);
      const settings = {
        retryLimit: definition.retryLimit ?? 5,
        retryDelay: definition.retryDelaySeconds ?? 10,
        retryBackoff: true,
        ...(definition.retryDelayMaxSeconds ? { retryDelayMax: definition.retryDelayMaxSeconds } : {}),
        expireInSeconds: definition.expireInSeconds ?? 300,
        ...(definition.heartbeatSeconds ? { heartbeatSeconds: definition.heartbeatSeconds } : {}),
      };
      await this.boss.createQueue(definition.name, { policy: definition.policy ?? 'standard', ...settings });
      // createQueue leaves a queue that exists as it was: a database made before a definition's
      // retry or expiry settings changed gets the new ones too.
      await this.boss.updateQueue(definition.name, settings);
    }
  }

  async work(): Promise<void> {
    for (const definition of this.definitions.values()) {
      const workOptions = {
        localConcurrency: definition.concurrency ?? 1,
        pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 2,
      };
      await this.boss.work(definition.name, workOptions, async (jobs) => {
        for (const job of jobs) {
          const payload = definition.payload.parse(job.data);
          try {
            await definition.handle(payload);
          } catch (error) {
            this.log.error(
              { err: error, job: definition.name, jobId: job.id },
              'job failed; pg-boss retries it',
            );
            throw error;
          }
        }
      });
    }
  }

  async schedule(jobs: ScheduledJob[]): Promise<void> {
    for (const job of jobs) await this.boss.schedule(job.name, job.cron, job.payload ?? {}, { tz: 'UTC' });
  }

  // Takes only the name and payload schema, so a service can enqueue without the handler it feeds.
  async send<Payload extends z.ZodType>(
    definition: Pick<JobDefinition<Payload>, 'name' | 'payload'>,
    payload: z.infer<Payload>,
    options: SendOptions = {},
  ): Promise<string | null> {
    return this.boss.send(definition.name, definition.payload.parse(payload) as object, options);
  }

  // Many jobs of one queue in one statement; with `db` they commit with the caller's transaction.
  async sendMany<Payload extends z.ZodType>(
    definition: Pick<JobDefinition<Payload>, 'name' | 'payload'>,
    payloads: z.infer<Payload>[],
    options: Pick<SendOptions, 'db'> = {},
  ): Promise<void> {
    if (payloads.length === 0) return;
    const jobs = payloads.map((payload) => ({ data: definition.payload.parse(payload) as object }));
    await this.boss.insert(definition.name, jobs, options);
  }

  async stop(): Promise<void> {
    if (!this.isStarted) return;
    this.isStarted = false;
    await this.boss.stop({ graceful: true, timeout: 20_000 });
  }
}
