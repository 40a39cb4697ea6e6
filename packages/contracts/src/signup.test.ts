import { describe, expect, it } from 'vitest';
import { passwordRequirementsText } from './password-rules';
import { completeSignupRequestSchema, signupLinkResponseSchema, startSignupRequestSchema } from './signup';

const completion = {
  guid: 'a1b2c3',
  emailAddress: 'Ada@Example.com',
  password: 'Abcdefgh12',
  firstName: 'Ada',
  lastName: 'Lovelace',
};

describe('sign-up', () => {
  it('starts with the lower-case `emailaddress` and `ReCaptchaResponse` of SPEC', () => {
    const parsed = startSignupRequestSchema.parse({
      emailaddress: 'ada@example.com',
      ReCaptchaResponse: 'token',
    });
    expect(Object.keys(parsed)).toEqual(['emailaddress', 'ReCaptchaResponse']);
    expect(
      startSignupRequestSchema.safeParse({ emailAddress: 'ada@example.com', ReCaptchaResponse: 't' }).success,
    ).toBe(false);
    expect(
      startSignupRequestSchema.safeParse({ emailaddress: 'ada@example.com', ReCaptchaResponse: '' }).success,
    ).toBe(false);
  });

  it('answers the link lookup with `EmailAddress`', () => {
    expect(signupLinkResponseSchema.safeParse({ EmailAddress: 'ada@example.com' }).success).toBe(true);
    expect(signupLinkResponseSchema.safeParse({ emailAddress: 'ada@example.com' }).success).toBe(false);
  });

  it('completes with camelCase fields, the optional ones defaulting to empty text', () => {
    const parsed = completeSignupRequestSchema.parse({ ...completion, company: null, city: '  Leeds ' });
    expect(parsed).toMatchObject({
      emailAddress: 'ada@example.com',
      company: '',
      city: 'Leeds',
      industry: '',
    });
  });

  it('requires first and last name', () => {
    expect(completeSignupRequestSchema.safeParse({ ...completion, firstName: '  ' }).success).toBe(false);
    const { lastName: _lastName, ...withoutLastName } = completion;
    expect(completeSignupRequestSchema.safeParse(withoutLastName).success).toBe(false);
  });

  it('refuses a password that breaks the rules, saying why', () => {
    const result = completeSignupRequestSchema.safeParse({ ...completion, password: 'abcdefghij' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['password'], message: passwordRequirementsText });
    expect(completeSignupRequestSchema.safeParse({ ...completion, password: ' Abcdefgh12' }).success).toBe(
      false,
    );
  });
});
