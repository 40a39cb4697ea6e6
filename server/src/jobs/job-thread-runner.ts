// Runs inside the job thread: its own pool, container and pg-boss worker, with the scheduled jobs.
import { parentPort, workerData } from 'node:worker_threads';
import { createContainer } from '../container';
import { openDatabase } from '../db/database';
import { ForegroundGauge, giveWayTo, waitForForeground } from '../lib/foreground';
import { createLogger } from '../lib/log';
import { lowerThreadPriority } from '../lib/priority';
import { redactDatabaseError } from '../lib/redact-database-error';
import { createJobDefinitions, scheduledJobs } from './definitions';
import type { JobThreadData, JobThreadMessage } from './job-thread';
import { JobQueue } from '../queue/queue';

const data = workerData as JobThreadData;
const port = parentPort!;
const post = (message: JobThreadMessage) => port.postMessage(message);
// Structured cloning turns a Buffer into a plain Uint8Array.
const secrets = { ...data.secrets, encryptionKey: Buffer.from(data.secrets.encryptionKey) };
const log = createLogger(data.config, { thread: 'jobs' });
lowerThreadPriority(log);
// Long enough for most requests to finish (their median is 3-5 ms); 100 ms of waits in hand.
giveWayTo(new ForegroundGauge(data.foreground), 20, 100);

try {
  const database = await openDatabase(data.databaseUrl, {
    applicationName: 'cloudtrim jobs',
    beforeConnect: waitForForeground,
  });
  const queue = new JobQueue(data.databaseUrl, log);
  const container = createContainer({ config: data.config, secrets, database, queue, log });
  await queue.start(createJobDefinitions(container));
  await queue.work();
  if (data.isScheduling) await queue.schedule(scheduledJobs);
  port.on('message', (message: { type: string }) => {
    if (message.type !== 'stop') return;
    void (async () => {
      await queue
        .stop()
        .catch((error: unknown) => log.error({ err: error }, 'error while stopping the jobs'));
      await database.close().catch(() => {});
      post({ type: 'stopped' });
    })();
  });
  post({ type: 'ready' });
} catch (error) {
  // Written to the main thread's log: a failed statement's values stay out of it.
  const failure = redactDatabaseError(error);
  post({
    type: 'failed',
    message: failure instanceof Error ? (failure.stack ?? failure.message) : String(failure),
  });
}
