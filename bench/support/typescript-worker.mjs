// Worker threads do not inherit the parent's tsx loader in Node 20: this plain-JS entry registers
// it, then loads the TypeScript module named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
