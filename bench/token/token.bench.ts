// POST /api/v1/token: throughput and p99 of a real login (argon2id m=19456 KiB, t=2, p=1, a
// session row, a JWT) beside a bare Fastify route answering a token-sized string.
import { hashPassword } from '../../server/src/lib/password-hasher';
import { measure, printComparison, startBaseline, startBenchServer } from '../support/harness';

const server = await startBenchServer();
const password = 'Bench-Password-2026';
await server.container.repositories.account.createWithTeam({
  email: 'bench@example.com',
  passwordHash: await hashPassword(password),
  firstName: 'Bench',
  lastName: 'User',
});
const request = {
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ emailAddress: 'bench@example.com', password }),
};
const sample = await fetch(`${server.url}/api/v1/token`, request);
const token = await sample.text();
if (!sample.ok) throw new Error(`login failed: ${sample.status} ${token}`);

const ours = await measure({ url: `${server.url}/api/v1/token`, ...request });
const baseline = await startBaseline('POST', '/api/v1/token', token);
const bare = await measure({ url: `${baseline.url}/api/v1/token`, ...request });
printComparison('POST /api/v1/token (10 connections, 10 s)', ours, bare);

await baseline.stop();
await server.stop();
