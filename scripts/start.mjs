// `npm start`: installs what is missing, builds the web app if needed, then starts Cloudtrim with
// its embedded defaults (PostgreSQL in ./data, the demo Azure, mail to the log).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild, root } from './ensure-dependencies.mjs';

ensureDependencies();
ensureWebBuild();

// The old generation's ceiling of server/src/lib/heap.ts (`apiHeapFlags`): V8 collects sooner under
// it, which keeps the process within its gigabyte.
const server = spawn(
  process.execPath,
  ['--max-old-space-size=1024', '--import', 'tsx', 'server/src/main.ts'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
