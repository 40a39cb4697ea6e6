// The job thread's entry (see job-thread.ts): registers tsx in this thread, then loads the runner.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.runnerUrl);
