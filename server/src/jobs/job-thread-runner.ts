// Runs inside the job thread: its own pool, container and pg-boss worker, with the scheduled jobs.
import { parentPort, workerData } from 'node:worker_threads';
import { createContainer } from '../container';
import { openDatabase } from '../db/database';
import { createLogger } from '../lib/log';
import { createJobDefinitions, scheduledJobs } from './definitions';
import type { JobThreadData, JobThreadMessage } from './job-thread';
import { JobQueue } from './queue';

const data = workerData as JobThreadData;
const port = parentPort!;
const post = (message: JobThreadMessage) => port.postMessage(message);
// Structured cloning turns a Buffer into a plain Uint8Array.
const secrets = { ...data.secrets, encryptionKey: Buffer.from(data.secrets.encryptionKey) };
const log = createLogger(data.config, { thread: 'jobs' });

try {
  const database = await openDatabase(data.databaseUrl);
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
  post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
