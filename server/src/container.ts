// The composition root: repositories, adapters and services, built once and shared by the HTTP
// routes and the background jobs.
import type { Logger } from 'pino';
import { createLogger } from './lib/log';
import { createCloudServices } from './cloud/cloud-services';
import type { Config, Secrets } from './config';
import type { Database } from './db/database';
import type { JobQueue } from './jobs/queue';
import { JwtCodec } from './lib/jwt';
import { SecretBox } from './lib/secret-box';
import { AccountService } from './modules/account/account.service';
import { AccountRepository } from './modules/account/account.repository';
import { AuthService } from './modules/auth/auth.service';
import { AuthRepository } from './modules/auth/auth.repository';
import { CaptchaRepository } from './modules/captcha/captcha.repository';
import { createCaptchaProvider } from './modules/captcha/captcha-provider.factory';
import { CaptchaService } from './modules/captcha/captcha.service';
import { DemoService } from './modules/demo/demo.service';
import { MailService } from './modules/mail/mail.service';
import { createMailTransport } from './modules/mail/mail.transport';
import { PasswordRepository } from './modules/password/password.repository';
import { PasswordService } from './modules/password/password.service';
import { SignupRepository } from './modules/signup/signup.repository';
import { SignupService } from './modules/signup/signup.service';
import { TeamRepository } from './modules/team/team.repository';
import { TeamService } from './modules/team/team.service';
import { ThrottleRepository } from './modules/throttle/throttle.repository';
import { ThrottleService } from './modules/throttle/throttle.service';

export interface ContainerInput {
  config: Config;
  secrets: Secrets;
  database: Database;
  queue: JobQueue;
  now?: () => Date;
  log?: Logger;
}

export function createContainer({
  config,
  secrets,
  database,
  queue,
  now = () => new Date(),
  log = createLogger(config),
}: ContainerInput) {
  const users = new AccountRepository(database.db);
  const sessions = new AuthRepository(database.db);
  const throttle = new ThrottleService(new ThrottleRepository(database.db), now);
  const auth = new AuthService(
    users,
    sessions,
    throttle,
    new JwtCodec(secrets.jwtSecret),
    config.sessionHours,
    now,
  );
  const mail = new MailService(
    queue,
    new SecretBox(secrets.encryptionKey),
    createMailTransport({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom }, log),
  );
  const captcha = new CaptchaService(
    createCaptchaProvider(config.captcha, secrets.jwtSecret),
    new CaptchaRepository(database.db),
    now,
  );
  const { publicUrl } = config;
  return {
    config,
    database,
    repositories: { users, sessions },
    queue,
    throttle,
    auth,
    account: new AccountService(users),
    demo: new DemoService(users),
    mail,
    captcha,
    signup: new SignupService(
      captcha,
      new SignupRepository(database.db),
      users,
      throttle,
      mail,
      publicUrl,
      now,
    ),
    password: new PasswordService(
      users,
      new PasswordRepository(database.db),
      auth,
      throttle,
      queue,
      mail,
      publicUrl,
      now,
    ),
    team: new TeamService(new TeamRepository(database.db), users, auth, throttle, mail, publicUrl, now),
    ...createCloudServices({ config, secrets, database, queue, now }),
  };
}

export type Container = ReturnType<typeof createContainer>;
