import type { MessageResponse } from '@cloudtrim/contracts/common';
import {
  signupEmailInUseText,
  signupSuccessText,
  signupTooManyRequestsText,
  signupTooSoonText,
  verifyLinkExpiredText,
} from '@cloudtrim/contracts/messages';
import type { CompleteSignup, SignupLinkResponse, StartSignupRequest } from '@cloudtrim/contracts/signup';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  tooManyRequests,
  unauthorized,
} from '../../lib/http-errors';
import { hashPassword } from '../../lib/password-hasher';
import { createOneTimeToken, hashToken } from '../../lib/secret-box';
import type { AccountRepository } from '../account/account.repository';
import type { CaptchaService } from '../captcha/captcha.service';
import type { MailService } from '../mail/mail.service';
import { buildVerifyLink, describeDuration, renderVerifyEmail } from '../mail/mail.templates';
import { toClientNetwork } from '../throttle/client-network';
import type { ThrottleRule, ThrottleService } from '../throttle/throttle.service';
import type { SignupRepository } from './signup.repository';
import { dayMs } from '../../lib/time';

// A confirmation link lives 24 hours. One address gets at most one confirmation mail every 5
// minutes (425) and 5 in any 24 hours (403), counted from the links sent, so the bounds slide; one
// client may start 20 sign-ups an hour (429).
export const signupRules = {
  linkLifetimeSeconds: 24 * 3600,
  resendGapSeconds: 5 * 60,
  mailsPerAddressPerDay: 5,
  perClient: { limit: 20, windowSeconds: 3600 },
} satisfies Record<string, number | ThrottleRule>;

export const signupLinkInvalidText = 'This link is not valid or has already been used.';
export const signupLinkExpiredText = 'This link has expired.';
export const invitationExpiredText =
  'This invitation has expired. Please ask your colleague to invite you again.';
export const signupEmailMismatchText = 'This link was sent to another email address.';
export const accountCreatedText = 'Your account has been created.';
const tooManySignupsText = 'Too many sign-up requests. Please try again later.';

// A sign-up or invitation link, whichever the token belongs to.
interface SignupLink {
  kind: 'verify' | 'invitation';
  email: string;
  expiresAt: Date;
  isUsed: boolean;
}

export class SignupService {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly signups: SignupRepository,
    private readonly users: AccountRepository,
    private readonly throttle: ThrottleService,
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // The captcha comes first: nothing about the address is looked at for an unsolved one.
  async start(request: StartSignupRequest, clientAddress: string): Promise<MessageResponse> {
    await this.captcha.assertSolved(request.ReCaptchaResponse, clientAddress);
    if (await this.throttle.hit(`signup:client:${toClientNetwork(clientAddress)}`, signupRules.perClient)) {
      throw tooManyRequests(tooManySignupsText);
    }
    const email = request.emailaddress;
    if (await this.users.findByEmail(email)) throw conflict(signupEmailInUseText);
    const allowance = await this.checkMailAllowance(email);
    if (allowance === 'too-many') throw forbidden(signupTooManyRequestsText);
    if (allowance === 'too-soon') throw new HttpError(425, signupTooSoonText);
    await this.sendVerifyLink(email);
    return { message: signupSuccessText };
  }

  // An expired confirmation link mails a fresh one (within the same per-address bounds) and answers 409.
  async describeLink(token: string): Promise<SignupLinkResponse> {
    const link = await this.findUnusedLink(token);
    // The address has an account by now (through another link): this link is spent too.
    if (await this.users.findByEmail(link.email)) throw unauthorized(signupLinkInvalidText);
    if (link.expiresAt <= this.now()) {
      if (link.kind === 'invitation') throw unauthorized(invitationExpiredText);
      const allowance = await this.checkMailAllowance(link.email);
      if (allowance === 'too-many') throw forbidden(signupTooManyRequestsText);
      // 'too-soon': a link mailed in the last minutes is on its way, which is what the answer says.
      if (allowance === 'allowed') await this.sendVerifyLink(link.email);
      throw conflict(verifyLinkExpiredText);
    }
    return { EmailAddress: link.email };
  }

  async complete(request: CompleteSignup): Promise<MessageResponse> {
    const link = await this.findUnusedLink(request.guid);
    const now = this.now();
    if (link.expiresAt <= now) {
      throw unauthorized(link.kind === 'invitation' ? invitationExpiredText : signupLinkExpiredText);
    }
    if (link.email !== request.emailAddress) throw badRequest(signupEmailMismatchText, 'emailAddress');
    if (await this.users.findByEmail(link.email)) throw conflict(signupEmailInUseText);
    const user = {
      email: link.email,
      passwordHash: await hashPassword(request.password),
      firstName: request.firstName,
      lastName: request.lastName,
      company: request.company,
      address1: request.address1,
      address2: request.address2,
      city: request.city,
      state: request.state,
      zipcode: request.zipcode,
      country: request.country,
      companySize: request.companySize,
      annualRevenue: request.annualRevenue,
      industry: request.industry,
    };
    const tokenHash = hashToken(request.guid);
    const result =
      link.kind === 'verify'
        ? await this.signups.completeFromVerifyToken(tokenHash, user, now)
        : await this.signups.completeFromInvitation(tokenHash, user, now);
    if (result.status === 'account-exists') throw conflict(signupEmailInUseText);
    // Another request consumed the link in the meantime.
    if (result.status === 'link-unavailable') throw unauthorized(signupLinkInvalidText);
    return { message: accountCreatedText };
  }

  purgeExpired(): Promise<void> {
    return this.signups.deleteExpiredLinks(new Date(this.now().getTime() - 30 * dayMs));
  }

  // An unknown or used link answers 401.
  private async findUnusedLink(token: string): Promise<SignupLink> {
    const tokenHash = hashToken(token);
    const verifyToken = await this.signups.findVerifyToken(tokenHash);
    const invitation = verifyToken ? undefined : await this.signups.findInvitation(tokenHash);
    const link: SignupLink | undefined = verifyToken
      ? {
          kind: 'verify',
          email: verifyToken.email,
          expiresAt: verifyToken.expiresAt,
          isUsed: !!verifyToken.usedAt,
        }
      : invitation && {
          kind: 'invitation',
          email: invitation.email,
          expiresAt: invitation.expiresAt,
          isUsed: !!invitation.acceptedAt,
        };
    if (!link || link.isUsed) throw unauthorized(signupLinkInvalidText);
    return link;
  }

  private async checkMailAllowance(email: string): Promise<'allowed' | 'too-soon' | 'too-many'> {
    const now = this.now().getTime();
    const history = await this.signups.getVerifySendHistory(email, new Date(now - dayMs));
    if (history.count >= signupRules.mailsPerAddressPerDay) return 'too-many';
    const isTooSoon =
      history.lastSentAt !== undefined &&
      now - history.lastSentAt.getTime() < signupRules.resendGapSeconds * 1000;
    return isTooSoon ? 'too-soon' : 'allowed';
  }

  private async sendVerifyLink(email: string): Promise<void> {
    const now = this.now();
    const token = createOneTimeToken();
    const expiresAt = new Date(now.getTime() + signupRules.linkLifetimeSeconds * 1000);
    await this.signups.insertVerifyToken(email, hashToken(token), now, expiresAt);
    await this.mail.enqueue(
      email,
      renderVerifyEmail(
        buildVerifyLink(this.publicUrl, token),
        describeDuration(signupRules.linkLifetimeSeconds),
      ),
    );
  }
}
