// `npm start`: installs what is missing, builds the web app if needed, then starts Cloudtrim with
// its embedded defaults (PostgreSQL in ./data, the demo Azure, mail to the log).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild, root } from './ensure-dependencies.mjs';

ensureDependencies();
ensureWebBuild();

// The old generation's ceiling of server/src/lib/heap.ts (`apiHeapFlags`): V8 collects sooner under
// it, which keeps the process within its gigabyte.
//
// The server and its embedded PostgreSQL get a session and process group of their own: a terminal's
// Ctrl-C signals its whole foreground group, and PostgreSQL, signalled with it, would shut down at
// once, ending the sessions the server's graceful stop still uses. The terminal's signals reach the
// server through this script instead (a closed terminal's SIGHUP as SIGTERM), and the server stops
// PostgreSQL last.
const server = spawn(
  process.execPath,
  ['--max-old-space-size=1024', '--import', 'tsx', 'server/src/main.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  },
);
for (const [signal, forwarded] of [
  ['SIGINT', 'SIGINT'],
  ['SIGTERM', 'SIGTERM'],
  ['SIGHUP', 'SIGTERM'],
]) {
  process.on(signal, () => server.kill(forwarded));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
