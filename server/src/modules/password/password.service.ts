import type { MessageResponse } from '@cloudtrim/contracts/common';
import {
  recoverSuccessText,
  recoverTooManyRequestsText,
  resetAccountNotFoundText,
  resetAlreadyCompletedText,
  resetInvalidCodeText,
  resetTooManyAttemptsText,
} from '@cloudtrim/contracts/messages';
import type {
  ChangePasswordRequest,
  ResetPasswordWithCodeRequest,
  ValidateResetCodeResponse,
} from '@cloudtrim/contracts/password-reset';
import type { JobQueue } from '../../queue/queue';
import { sendPasswordResetQueue } from '../../queue/mail-work';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { hashPassword, verifyPassword } from '../../lib/password-hasher';
import { createOneTimeToken, hashToken } from '../../lib/secret-box';
import type { AccountRepository } from '../account/account.repository';
import type { AuthContext, AuthService } from '../auth/auth.service';
import type { MailService } from '../mail/mail.service';
import { buildPasswordResetLink, describeDuration, renderPasswordResetEmail } from '../mail/mail.templates';
import { toClientNetwork } from '../throttle/client-network';
import type { ThrottleRule, ThrottleService } from '../throttle/throttle.service';
import type { PasswordRepository } from './password.repository';
import { dayMs } from '../../lib/time';

// A reset link lives 30 minutes. Reset requests: 3 per address and 20 per client in 15 minutes.
// Wrong codes: 10 per address in 15 minutes, after which even a right one waits (429). Wrong current
// passwords on a change: 10 per account in 15 minutes.
export const passwordRules = {
  resetLinkLifetimeSeconds: 30 * 60,
  resetRequestsPerAddress: { limit: 3, windowSeconds: 15 * 60 },
  resetRequestsPerClient: { limit: 20, windowSeconds: 15 * 60 },
  resetAttemptsPerAddress: { limit: 10, windowSeconds: 15 * 60 },
  changeAttemptsPerAccount: { limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, number | ThrottleRule>;

export const passwordUpdatedText = 'Your password has been updated.';
export const wrongCurrentPasswordText = 'The current password is not correct. Please check it and try again.';
const tooManyChangeAttemptsText =
  'Too many wrong current passwords. Please wait a few minutes before trying again.';

export class PasswordService {
  constructor(
    private readonly users: AccountRepository,
    private readonly passwords: PasswordRepository,
    private readonly auth: AuthService,
    private readonly throttle: ThrottleService,
    private readonly queue: JobQueue,
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // The same answer, at the same cost, whether or not the address has an account: the lookup and the
  // mail happen in the send-password-reset job.
  async requestReset(email: string, clientAddress: string): Promise<MessageResponse> {
    const isAddressOver = await this.throttle.hit(
      `reset:request:${email}`,
      passwordRules.resetRequestsPerAddress,
    );
    const isClientOver = await this.throttle.hit(
      `reset:client:${toClientNetwork(clientAddress)}`,
      passwordRules.resetRequestsPerClient,
    );
    if (isAddressOver || isClientOver) throw tooManyRequests(recoverTooManyRequestsText);
    await this.queue.send(sendPasswordResetQueue, { email });
    return { message: recoverSuccessText };
  }

  async sendResetLink(email: string): Promise<void> {
    if (!(await this.users.findByEmail(email))) return;
    const now = this.now();
    const code = createOneTimeToken();
    const expiresAt = new Date(now.getTime() + passwordRules.resetLinkLifetimeSeconds * 1000);
    await this.passwords.insertResetCode(email, hashToken(code), now, expiresAt);
    await this.mail.enqueue(
      email,
      renderPasswordResetEmail(
        buildPasswordResetLink(this.publicUrl, email, code),
        describeDuration(passwordRules.resetLinkLifetimeSeconds),
      ),
    );
  }

  async validateCode(email: string, code: string): Promise<ValidateResetCodeResponse> {
    await this.countAttempt(email);
    const resetCode = await this.passwords.findResetCode(hashToken(code));
    const isValid =
      !!resetCode && resetCode.email === email && !resetCode.usedAt && resetCode.expiresAt > this.now();
    // Checking a right code is no guess: its attempt is taken back (the reset itself clears them).
    if (isValid) await this.throttle.giveBack(this.attemptsKey(email), passwordRules.resetAttemptsPerAddress);
    return { Validated: isValid };
  }

  // Success ends every session of the account: whoever knew the old password is out.
  async resetWithCode(request: ResetPasswordWithCodeRequest): Promise<MessageResponse> {
    const email = request.EmailAddress;
    await this.countAttempt(email);
    const codeHash = hashToken(request.Code);
    const resetCode = await this.passwords.findResetCode(codeHash);
    if (!resetCode || resetCode.email !== email) throw unauthorized(resetInvalidCodeText);
    if (resetCode.usedAt) throw conflict(resetAlreadyCompletedText);
    const now = this.now();
    if (resetCode.expiresAt <= now) throw unauthorized(resetInvalidCodeText);
    const user = await this.users.findByEmail(email);
    if (!user) throw notFound(resetAccountNotFoundText);
    const passwordHash = await hashPassword(request.NewPassword);
    if (!(await this.passwords.resetPassword(codeHash, user.id, passwordHash, now))) {
      throw conflict(resetAlreadyCompletedText);
    }
    await this.auth.logOutEverywhere(user.id);
    await this.throttle.clear(this.attemptsKey(email));
    return { message: passwordUpdatedText };
  }

  // A wrong current password is a 400, not a 401: it must not end the session that asked.
  async changePassword(auth: AuthContext, request: ChangePasswordRequest): Promise<MessageResponse> {
    const attemptsKey = `password-change:${auth.userId}`;
    // Counted before the password is checked (see ThrottleService.hit); a success clears the count.
    if (await this.throttle.hit(attemptsKey, passwordRules.changeAttemptsPerAccount)) {
      throw tooManyRequests(tooManyChangeAttemptsText);
    }
    const user = await this.users.findById(auth.userId);
    if (!user) throw unauthorized();
    if (!(await verifyPassword(user.passwordHash, request.OldPassword))) {
      throw badRequest(wrongCurrentPasswordText, 'OldPassword');
    }
    await this.users.updatePasswordHash(user.id, await hashPassword(request.NewPassword));
    await this.throttle.clear(attemptsKey);
    if (request.LogOutAllDevices) await this.auth.logOutEverywhere(user.id, auth.sessionId);
    return { message: passwordUpdatedText };
  }

  purgeExpired(): Promise<void> {
    return this.passwords.deleteExpiredResetCodes(new Date(this.now().getTime() - dayMs));
  }

  private attemptsKey(email: string): string {
    return `reset:attempt:${email}`;
  }

  // Counted before the code is looked at (see ThrottleService.hit); a completed reset clears them.
  private async countAttempt(email: string): Promise<void> {
    if (await this.throttle.hit(this.attemptsKey(email), passwordRules.resetAttemptsPerAddress)) {
      throw tooManyRequests(resetTooManyAttemptsText);
    }
  }
}
