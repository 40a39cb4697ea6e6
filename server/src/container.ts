// The composition root: repositories, adapters and services, built once and shared by the HTTP
// routes and the background jobs.
import type { Config, Secrets } from './config';
import type { Database } from './db/database';
import type { JobQueue } from './jobs/queue';
import { JwtCodec } from './lib/jwt';
import { AccountService } from './modules/account/account.service';
import { UserRepository } from './modules/account/user.repository';
import { AuthService } from './modules/auth/auth.service';
import { SessionRepository } from './modules/auth/session.repository';
import { DemoService } from './modules/demo/demo.service';
import { ThrottleRepository } from './modules/throttle/throttle.repository';
import { ThrottleService } from './modules/throttle/throttle.service';

export interface ContainerInput {
  config: Config;
  secrets: Secrets;
  database: Database;
  queue: JobQueue;
  now?: () => Date;
}

export function createContainer({
  config,
  secrets,
  database,
  queue,
  now = () => new Date(),
}: ContainerInput) {
  const users = new UserRepository(database.db);
  const sessions = new SessionRepository(database.db);
  const throttle = new ThrottleService(new ThrottleRepository(database.db), now);
  const auth = new AuthService(
    users,
    sessions,
    throttle,
    new JwtCodec(secrets.jwtSecret),
    config.sessionHours,
    now,
  );
  return {
    config,
    database,
    repositories: { users, sessions },
    queue,
    throttle,
    auth,
    account: new AccountService(users),
    demo: new DemoService(users),
  };
}

export type Container = ReturnType<typeof createContainer>;
