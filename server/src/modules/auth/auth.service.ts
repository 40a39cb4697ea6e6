import { loginFailedText } from '@cloudtrim/contracts/auth';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../db/database';
import type { JwtCodec } from '../../lib/jwt';
import { tooManyRequests, unauthorized } from '../../lib/http-errors';
import { decoyHash, verifyPassword } from '../../lib/password-hasher';
import type { AccountRepository } from '../account/account.repository';
import { toClientNetwork } from '../throttle/client-network';
import type { ThrottleRule, ThrottleService } from '../throttle/throttle.service';
import type { ActiveSession, AuthRepository } from './auth.repository';
import { PasswordCheckQueue } from './password-check.queue';
import { hourMs, dayMs } from '../../lib/time';

// Failed logins: 10 per account and 100 per client address in 15 minutes. Only failures count, a
// success clears the account's count, and the window is short, so an attacker cannot lock the
// real user out for more than 15 minutes.
export const loginThrottleRules = {
  perAccount: { limit: 10, windowSeconds: 15 * 60 },
  perClient: { limit: 100, windowSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>;

export type AuthContext = ActiveSession;

const refusedLoginDelayMilliseconds = 1_000;
const tooManyLoginsText = 'Too many failed login attempts. Please wait a few minutes before trying again.';

export class AuthService {
  private readonly passwordChecks = new PasswordCheckQueue();

  constructor(
    private readonly users: AccountRepository,
    private readonly sessions: AuthRepository,
    private readonly throttle: ThrottleService,
    private readonly jwt: JwtCodec,
    private readonly sessionHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async logIn(emailAddress: string, password: string, clientAddress: string): Promise<string> {
    const email = emailAddress.trim().toLowerCase();
    const accountKey = `login:account:${email}`;
    const clientKey = `login:client:${toClientNetwork(clientAddress)}`;
    // Counted before the password is checked (see ThrottleService.hit); a success clears the
    // address's count and takes its attempt back from the client's.
    const isOver = await Promise.all([
      this.throttle.hit(accountKey, loginThrottleRules.perAccount),
      this.throttle.hit(clientKey, loginThrottleRules.perClient),
    ]);
    if (isOver.includes(true)) {
      // Held before the answer: a client flooding logins waits on its own refusals, at the cost of
      // a timer, instead of taking turns of the event loop and the database from everyone else.
      await delay(refusedLoginDelayMilliseconds);
      throw tooManyRequests(tooManyLoginsText);
    }
    const user = await this.users.findByEmail(email);
    const isValid = await this.passwordChecks.run(() =>
      verifyPassword(user?.passwordHash ?? decoyHash, password),
    );
    if (!user || !isValid) throw unauthorized(loginFailedText);
    await Promise.all([
      this.throttle.clear(accountKey),
      this.throttle.giveBack(clientKey, loginThrottleRules.perClient),
    ]);
    return this.issueToken(user.id, user.email, user.firstName);
  }

  async issueToken(userId: string, email: string, givenName: string): Promise<string> {
    const expiresAt = new Date(this.now().getTime() + this.sessionHours * hourMs);
    const sessionId = await this.sessions.create(userId, expiresAt);
    return this.jwt.sign({ userId, sessionId, email, givenName, expiresAt });
  }

  // A token is valid only while its session is: revoking a session ends it at once.
  async authenticate(token: string): Promise<AuthContext> {
    const now = this.now();
    const claims = this.jwt.verify(token, now);
    const session = claims && (await this.sessions.findActive(claims.sid, claims.sub, now));
    if (!session) throw unauthorized('Your session has expired, please log in again.');
    return session;
  }

  // Authenticated calls answered from memory while the revocation listener holds (AuthRepository).
  startSessionCache(): void {
    this.sessions.startSessionCache();
  }

  stopSessionCache(): Promise<void> {
    return this.sessions.stopSessionCache();
  }

  // Returns once every process refuses the session (AuthRepository.revokeEverywhere).
  logOut(auth: AuthContext): Promise<void> {
    return this.sessions.revoke(auth.sessionId);
  }

  logOutEverywhere(userId: string, keepSessionId?: string): Promise<void> {
    return this.sessions.revokeAllForUser(userId, keepSessionId);
  }

  // Ends the user's sessions in the transaction of `work` (AuthRepository.revokeAllForUserWith),
  // only when work answers true.
  logOutEverywhereWith(userId: string, work: (db: Db) => Promise<boolean>): Promise<boolean> {
    return this.sessions.revokeAllForUserWith(userId, work);
  }

  purgeExpiredSessions(): Promise<void> {
    return this.sessions.deleteExpired(new Date(this.now().getTime() - 7 * dayMs));
  }
}
