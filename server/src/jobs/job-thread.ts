// With ROLE=all the background jobs run on a worker thread of their own: a metric collection or an
// inventory sync (parsing Azure's answers, shaping thousands of points) never shares the event loop
// that serves the API. The thread has its own database pool and pg-boss worker on the same
// database; the main thread keeps a send-only queue. ROLE=worker runs the jobs on its main thread,
// since that process serves no API.
import { Worker } from 'node:worker_threads';
import type { Config, Secrets } from '../config';
import { backgroundYoungGenerationMb, oldGenerationCeilingMb } from '../lib/heap';

export interface JobThreadData {
  config: Config;
  secrets: Secrets;
  databaseUrl: string;
  // Whether this thread keeps the schedules (collection every 5 minutes, syncs every 15, purges).
  isScheduling: boolean;
  // The API's requests in flight (lib/foreground.ts): the thread's connections and yields give way
  // while any run.
  foreground: SharedArrayBuffer;
}

export type JobThreadMessage = { type: 'ready' } | { type: 'stopped' } | { type: 'failed'; message: string };

export interface JobThread {
  // Finishes the jobs in flight (pg-boss's graceful stop), then ends the thread.
  stop(): Promise<void>;
}

// The thread loads TypeScript through tsx, registered by a plain-JavaScript entry: a worker thread
// does not inherit the main thread's loader.
const entryUrl = new URL('./job-thread-entry.mjs', import.meta.url);
const runnerUrl = new URL('./job-thread-runner.ts', import.meta.url);

export function startJobThread(data: JobThreadData, onCrash: (error: Error) => void): Promise<JobThread> {
  const worker = new Worker(entryUrl, {
    workerData: { ...data, runnerUrl: runnerUrl.href },
    name: 'jobs',
    resourceLimits: {
      maxYoungGenerationSizeMb: backgroundYoungGenerationMb,
      maxOldGenerationSizeMb: oldGenerationCeilingMb,
    },
  });
  let isStopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const stoppedCleanly = new Promise<void>((resolve) =>
    worker.on('message', (message: JobThreadMessage) => message.type === 'stopped' && resolve()),
  );
  const thread: JobThread = {
    stop: async () => {
      if (!isStopping) {
        isStopping = true;
        worker.postMessage({ type: 'stop' });
      }
      // Once the queue and pool are closed nothing is left to wait for in the thread.
      await Promise.race([stoppedCleanly, exited]);
      await worker.terminate();
    },
  };
  return new Promise((resolve, reject) => {
    let isReady = false;
    const fail = (error: Error) => {
      if (isReady) return onCrash(error);
      isStopping = true;
      void worker.terminate();
      reject(error);
    };
    worker.on('message', (message: JobThreadMessage) => {
      if (message.type === 'ready') {
        isReady = true;
        resolve(thread);
      } else if (message.type === 'failed') {
        fail(new Error(`The job thread failed: ${message.message}`));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!isStopping) fail(new Error(`The job thread exited unexpectedly (code ${code}).`));
    });
  });
}
