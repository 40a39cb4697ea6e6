// pg-boss behind one module: job definitions are named files (id, payload schema, handler) that
// call services; the API role only sends, the worker role also works.
//
// pg-boss 10, the newest that runs on the Node 20.19 the README names (11 and 12 need Node 22).
// What 10 lacks is done here, each where it happens: several runs of a queue side by side
// (workQueue), a stately queue that passes over a key already running (fetchSql), the job's abort
// signal (runJob), a cap on the retry back-off (capRetryDelays), a heartbeat (startHeartbeat), and
// a schema a newer pg-boss made (setAsideNewerSchema). Those reach pg-boss's tables, which is why
// server/package.json pins pg-boss to one release.
import { createRequire } from 'node:module';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import { isUniqueViolation } from '../db/database';

const schema = 'pgboss';
// The schema version pg-boss 10 makes and reads (its version.json).
const pgBossSchemaVersion = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number })
  .schema;
const defaultExpireInSeconds = 300;
// A run is failed here this long before pg-boss's maintenance would find its job expired, so the two
// never both fail one job: pg-boss 10 fails by id, whichever run of the job is active.
const expiryMarginMs = 1_000;
// How long a stop waits for the runs in flight before it fails their jobs and aborts their signals.
const stopGraceMs = 20_000;
// How long a stop then waits for the aborted handlers to return, so none is still using the
// database when the process closes it (a handler deaf to its signal is left behind after it).
const abortedGraceMs = 5_000;

export interface JobContext {
  // Aborted when the run passes its expiry, when its job is no longer its own (a heartbeat found
  // it taken), and when the queue stops before the run ends.
  signal: AbortSignal;
}

export interface JobDefinition<Payload extends z.ZodType> {
  name: string;
  payload: Payload;
  retryLimit?: number;
  retryDelaySeconds?: number;
  // Retries back off exponentially from retryDelaySeconds; this caps the wait between two of them.
  retryDelayMaxSeconds?: number;
  // Jobs over this run time are failed and retried; every Azure-bound job sets its own.
  expireInSeconds?: number;
  // How often an idle worker looks for jobs (2 s unless set; at least 0.5 s).
  pollingIntervalSeconds?: number;
  // Jobs of this queue run side by side in each worker process (per-tenant work must not queue
  // behind one slow tenant).
  concurrency?: number;
  // A run sends a heartbeat this often; a job whose worker died (SIGKILL, lost host) is failed and
  // retried once it lapses, rather than when the job's whole expiry has passed.
  heartbeatSeconds?: number;
  // 'stately' with a singletonKey keeps at most one queued and one running job per key.
  policy?: 'standard' | 'stately';
  // The queue always passes the context; a test that calls a handler itself may leave it out.
  handle(payload: z.infer<Payload>, context?: JobContext): Promise<void>;
}

export interface ScheduledJob {
  name: string;
  cron: string;
  payload?: object;
}

export type SendOptions = PgBoss.SendOptions;

interface Logger {
  error(object: object, message: string): void;
  warn?(object: object, message: string): void;
}

interface FetchedJob {
  id: string;
  data: unknown;
  // Which run of the job this is: pg-boss counts the runs after the first.
  retryCount: number;
}

interface Run {
  definition: JobDefinition<z.ZodType>;
  job: FetchedJob;
  controller: AbortController;
  // Set once the run's end is decided (its handler settled, or endRun), so it is recorded once.
  isEnded: boolean;
  ended: Promise<void>;
  end(): void;
  // The handler itself, settled or not: a run ended by stop or expiry may still be returning.
  handled?: Promise<unknown>;
}

// pg-boss 10's fetch takes the oldest waiting jobs whatever their key: in a stately queue, one whose
// key already has a running job cannot become active, and the whole fetch fails on the unique index
// until that run ends, holding up every other key (pg-boss issue 535). This one passes over such keys,
// takes one job per key, and otherwise does what pg-boss's does (the state, the start, the run count).
const fetchSql = `
  with next as (
    select id, policy, singleton_key from ${schema}.job waiting
    where name = $1 and state < 'active' and start_after < now()
      and (policy is distinct from 'stately' or not exists (
        select 1 from ${schema}.job running
        where running.name = $1 and running.state = 'active' and running.policy = 'stately'
          and coalesce(running.singleton_key, '') = coalesce(waiting.singleton_key, '')))
    order by priority desc, created_on, id
    limit $2
    for update skip locked
  ), one_per_key as (
    select id, row_number() over (
      partition by case when policy = 'stately' then coalesce(singleton_key, '') else id::text end
    ) as place
    from next
  )
  update ${schema}.job job set
    state = 'active',
    started_on = now(),
    retry_count = case when job.started_on is not null then job.retry_count + 1 else job.retry_count end
  from one_per_key
  where job.name = $1 and job.id = one_per_key.id and one_per_key.place = 1
  returning job.id, job.data, job.retry_count as "retryCount"`;

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  private readonly workers: Promise<void>[] = [];
  private readonly alarms = new Set<Alarm>();
  private readonly runs = new Set<Run>();
  private isStarted = false;
  private isStopping = false;

  // A queue that only sends (the API's) leaves pg-boss's upkeep (maintenance, cron) to the workers'.
  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
    { isSendOnly = false }: { isSendOnly?: boolean } = {},
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema,
      supervise: !isSendOnly,
      schedule: !isSendOnly,
      // The pass that fails jobs whose run lapsed (expiry, heartbeat) runs this often (pg-boss's
      // default is 120 s). It also keeps pg-boss 10's retention: a finished job stays 12 h in
      // pgboss.job, then 7 days in pgboss.archive (12 kept it 7 days in pgboss.job), and one never
      // run is dropped after 14 days, as in 12.
      maintenanceIntervalSeconds: 10,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    // That pass fails with pg-boss's own back-off.
    this.boss.on('maintenance', () => {
      for (const definition of this.definitions.values()) {
        this.capRetryDelays(definition).catch((error: unknown) =>
          this.log.error({ err: error, job: definition.name }, 'could not cap the retry delays'),
        );
      }
    });
  }

  async start(definitions: JobDefinition<z.ZodType>[]): Promise<void> {
    await this.setAsideNewerSchema();
    await this.boss.start();
    this.isStarted = true;
    for (const definition of definitions) {
      this.definitions.set(definition.name, definition);
      const settings = {
        name: definition.name,
        policy: definition.policy ?? 'standard',
        retryLimit: definition.retryLimit ?? 5,
        retryDelay: definition.retryDelaySeconds ?? 10,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds ?? defaultExpireInSeconds,
      };
      await this.boss.createQueue(definition.name, settings);
      // createQueue leaves a queue that exists as it was: a database made before a definition's
      // retry or expiry settings changed gets the new ones too.
      await this.boss.updateQueue(definition.name, settings);
    }
    await this.moveJobsSetAside();
  }

  async work(): Promise<void> {
    for (const definition of this.definitions.values()) this.workers.push(this.workQueue(definition));
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

  // A stately key's waiting job brought up to `priority` (a send of that priority found it waiting
  // and was dropped, as stately queues do): the fetch takes higher priorities first.
  async raisePriority(
    definition: Pick<JobDefinition<z.ZodType>, 'name'>,
    singletonKey: string,
    priority: number,
  ): Promise<void> {
    await this.boss.getDb().executeSql(
      `update ${schema}.job set priority = $3
        where name = $1 and singleton_key = $2 and state < 'active' and priority < $3`,
      [definition.name, singletonKey, priority],
    );
  }

  // Many jobs of one queue in one statement; with `db` they commit with the caller's transaction.
  async sendMany<Payload extends z.ZodType>(
    definition: Pick<JobDefinition<Payload>, 'name' | 'payload'>,
    payloads: z.infer<Payload>[],
    options: Pick<SendOptions, 'db'> = {},
  ): Promise<void> {
    if (payloads.length === 0) return;
    const jobs = payloads.map((payload) => ({
      name: definition.name,
      data: definition.payload.parse(payload) as object,
    }));
    await this.boss.insert(jobs, options);
  }

  // Stops taking jobs, gives the runs in flight stopGraceMs to end, then fails the jobs of those
  // still going (pg-boss retries them), aborts their signals and gives their handlers
  // abortedGraceMs to return.
  async stop(): Promise<void> {
    if (!this.isStarted) return;
    this.isStarted = false;
    this.isStopping = true;
    for (const alarm of this.alarms) alarm.wake();
    await Promise.all(this.workers);
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.runs].map((run) => run.ended)),
      new Promise((resolve) => (graceTimer = setTimeout(resolve, stopGraceMs))),
    ]);
    clearTimeout(graceTimer);
    const stopped = new Error('The job queue stopped before the job ended.');
    const cut = [...this.runs];
    await Promise.all(cut.map((run) => this.endRun(run, stopped, { isJobOurs: true })));
    let abortedTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(cut.map((run) => run.handled)),
      new Promise((resolve) => (abortedTimer = setTimeout(resolve, abortedGraceMs))),
    ]);
    clearTimeout(abortedTimer);
    await this.boss.stop({ graceful: false });
  }

  // Keeps up to `concurrency` runs of one queue going in this process: asks for as many jobs as
  // there are free places, again as soon as a run ends, else every polling interval (pg-boss 10
  // runs one job per worker; 12's localConcurrency ran that many pollers).
  private async workQueue(definition: JobDefinition<z.ZodType>): Promise<void> {
    const concurrency = definition.concurrency ?? 1;
    const pollingMs = (definition.pollingIntervalSeconds ?? 2) * 1000;
    const inFlight = new Set<Promise<void>>();
    const alarm = new Alarm();
    this.alarms.add(alarm);
    while (!this.isStopping) {
      const free = concurrency - inFlight.size;
      const jobs = free > 0 ? await this.fetch(definition.name, free) : [];
      for (const job of jobs) {
        const run = this.runJob(definition, job).finally(() => {
          inFlight.delete(run);
          alarm.wake();
        });
        inFlight.add(run);
      }
      if (this.isStopping) break;
      await alarm.wait(inFlight.size < concurrency ? pollingMs : undefined);
    }
    this.alarms.delete(alarm);
  }

  private async fetch(name: string, count: number): Promise<FetchedJob[]> {
    try {
      const { rows } = await this.boss.getDb().executeSql(fetchSql, [name, count]);
      return rows as FetchedJob[];
    } catch (error) {
      // Two workers that took the waiting jobs of one key at once: one of them runs it, the other
      // finds nothing this time.
      if (!isUniqueViolation(error)) this.log.error({ err: error, job: name }, 'job queue error');
      return [];
    }
  }

  // pg-boss 10 hands a job no signal: each run gets one, aborted on its expiry, on the loss of its
  // job and on stop (endRun). A run past its expiry is failed even if its handler ignores the signal.
  private async runJob(definition: JobDefinition<z.ZodType>, job: FetchedJob): Promise<void> {
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    const run: Run = { definition, job, controller: new AbortController(), isEnded: false, ended, end };
    this.runs.add(run);
    const expireInSeconds = definition.expireInSeconds ?? defaultExpireInSeconds;
    const expiry = setTimeout(
      () => {
        const expired = new Error(`The job ran past its expiry of ${expireInSeconds} s.`);
        void this.endRun(run, expired, { isJobOurs: true });
      },
      expireInSeconds * 1000 - expiryMarginMs,
    );
    const stopHeartbeat = definition.heartbeatSeconds
      ? this.startHeartbeat(run, definition.heartbeatSeconds)
      : undefined;
    try {
      const handled = (async () => {
        await definition.handle(definition.payload.parse(job.data), { signal: run.controller.signal });
      })().then(
        () => ({ isDone: true as const }),
        (error: unknown) => ({ isDone: false as const, error }),
      );
      run.handled = handled;
      const outcome = await Promise.race([handled, ended.then(() => undefined)]);
      if (!outcome || run.isEnded) return;
      run.isEnded = true;
      if (outcome.isDone) await this.boss.complete(definition.name, job.id);
      else await this.recordFailure(definition, job.id, outcome.error);
    } catch (error) {
      this.log.error(
        { err: error, job: definition.name, jobId: job.id },
        'could not record the end of a job; pg-boss retries it once it expires',
      );
    } finally {
      clearTimeout(expiry);
      stopHeartbeat?.();
      this.runs.delete(run);
      end();
    }
  }

  // Ends a run its handler has not ended: fails its job first, while the run still holds it (unless
  // the job is no longer this run's), then aborts the run's signal.
  private async endRun(run: Run, reason: Error, { isJobOurs }: { isJobOurs: boolean }): Promise<void> {
    if (run.isEnded) return;
    run.isEnded = true;
    run.end();
    try {
      if (isJobOurs) await this.recordFailure(run.definition, run.job.id, reason);
    } catch (error) {
      this.log.error(
        { err: error, job: run.definition.name, jobId: run.job.id },
        'could not record the end of a job; pg-boss retries it once it expires',
      );
    } finally {
      run.controller.abort(reason);
    }
  }

  private async recordFailure(definition: JobDefinition<z.ZodType>, jobId: string, error: unknown) {
    this.log.error({ err: error, job: definition.name, jobId }, 'job failed; pg-boss retries it');
    await this.boss.fail(definition.name, jobId, error as object);
    await this.capRetryDelays(definition);
  }

  // pg-boss 10 has no retryDelayMax: after each failure it records (here, or in its maintenance),
  // the retries of a capped queue that would wait longer are brought forward to the cap.
  private async capRetryDelays(definition: JobDefinition<z.ZodType>): Promise<void> {
    if (!definition.retryDelayMaxSeconds) return;
    await this.boss.getDb().executeSql(
      `update ${schema}.job set start_after = now() + $2::float8 * interval '1 second'
        where name = $1 and state = 'retry' and start_after > now() + $2::float8 * interval '1 second'`,
      [definition.name, definition.retryDelayMaxSeconds],
    );
  }

  // pg-boss 10 has no heartbeat: the job's row is given one. Each beat moves the job's expiry to
  // heartbeatSeconds past it, so the maintenance that fails expired jobs fails one whose worker died
  // once a beat is missed (the run's own expiry is kept in runJob). The first beat is at once: a
  // retried job keeps its last run's expiry. A beat that finds the row no longer this run's (failed
  // by that maintenance, run again elsewhere) aborts the run.
  private startHeartbeat(run: Run, heartbeatSeconds: number): () => void {
    const beat = async () => {
      const { rows } = await this.boss.getDb().executeSql(
        `update ${schema}.job set expire_in = now() - started_on + $3::float8 * interval '1 second'
          where name = $1 and id = $2 and state = 'active' and retry_count = $4
          returning id`,
        [run.definition.name, run.job.id, heartbeatSeconds, run.job.retryCount],
      );
      if (rows.length > 0) return;
      const lost = new Error('The job was failed or taken while it ran: its heartbeat had lapsed.');
      await this.endRun(run, lost, { isJobOurs: false });
    };
    const beatLogged = () =>
      beat().catch((error: unknown) =>
        this.log.error({ err: error, job: run.definition.name, jobId: run.job.id }, 'job heartbeat failed'),
      );
    void beatLogged();
    const timer = setInterval(beatLogged, (heartbeatSeconds * 1000) / 2);
    return () => clearInterval(timer);
  }

  // pg-boss 10 reads only the schema version it makes, and does not refuse a newer one: it would
  // take the schema pg-boss 12 made (this app ran 12 on Node 22 before) for its own and fail on its
  // tables. Such a schema is renamed aside whole (pgboss_v<version>_<unix time>) and pg-boss makes a
  // fresh one; the jobs still waiting in it move over once their queues exist (moveJobsSetAside).
  // Nothing is dropped: the old schema stays for whoever wants to look at or drop it.
  private async setAsideNewerSchema(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      // Every process starts its queue: one of them sets the schema aside, the others find it gone.
      await client.query(`select pg_advisory_xact_lock(hashtext('cloudtrim.pgboss-schema'))`);
      const { rows: tables } = await client.query(`select to_regclass('${schema}.version') as name`);
      if (tables[0]?.name) {
        const { rows } = await client.query<{ version: number }>(`select version from ${schema}.version`);
        const version = rows[0]?.version ?? 0;
        if (version > pgBossSchemaVersion) {
          const aside = `${schema}_v${version}_${Math.floor(Date.now() / 1000)}`;
          await client.query(`alter schema ${schema} rename to ${aside}`);
          this.log.warn?.(
            { schema: aside, version },
            `the job queue's schema was made by a newer pg-boss (version ${version}); it is kept as ${aside} and a new one made`,
          );
        }
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      await client.end();
    }
  }

  // The jobs waiting or cut short in a schema set aside move into the new one, with their queues'
  // settings of today, in one statement per schema (a process stopped half-way leaves them for the
  // next start). A stately key holding two of them keeps one, as pg-boss would have.
  private async moveJobsSetAside(): Promise<void> {
    const db = this.boss.getDb();
    const { rows: schemas } = await db.executeSql(
      `select nspname as name from pg_namespace where nspname ~ '^${schema}_v[0-9]+_[0-9]+$' order by nspname`,
      [],
    );
    for (const { name: aside } of schemas as { name: string }[]) {
      const { rows: moved } = await db.executeSql(
        `with taken as (
          delete from ${aside}.job
          where name = any($1) and state::text in ('created', 'retry', 'active')
          returning id, name, priority, data, state::text as state, retry_count, start_after,
            singleton_key, created_on, keep_until
        )
        insert into ${schema}.job (id, name, priority, data, state, retry_limit, retry_count, retry_delay,
          retry_backoff, start_after, singleton_key, expire_in, created_on, keep_until, policy)
        select taken.id, taken.name, taken.priority, taken.data,
          case taken.state when 'created' then 'created' else 'retry' end::${schema}.job_state,
          queue.retry_limit, taken.retry_count, queue.retry_delay, queue.retry_backoff,
          case taken.state when 'active' then now() else taken.start_after end,
          taken.singleton_key, queue.expire_seconds * interval '1 second', taken.created_on,
          taken.keep_until, queue.policy
        from taken join ${schema}.queue queue on queue.name = taken.name
        on conflict do nothing
        returning id`,
        [[...this.definitions.keys()]],
      );
      if (moved.length > 0) {
        this.log.warn?.(
          { schema: aside, jobs: moved.length },
          `${moved.length} waiting job(s) moved from ${aside}`,
        );
      }
    }
  }
}

// A wait that a run's end or the queue's stop cuts short.
class Alarm {
  private ring = () => {};

  wait(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      this.ring = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wake(): void {
    this.ring();
  }
}
