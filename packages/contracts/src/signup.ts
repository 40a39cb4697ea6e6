import { z } from 'zod';
import { emailAddressSchema, messageResponseSchema, optionalTextSchema } from './common';
import { newPasswordSchema } from './password-rules';

// The one-time link token: the whole query string of /verify. Its format is the server's business.
const linkTokenSchema = z.string().trim().min(1).max(200);

// POST /api/v1/emailaddress: starts sign-up. The captcha token travels in `ReCaptchaResponse` whatever
// the captcha provider is.
export const startSignupRequestSchema = z.object({
  emailaddress: emailAddressSchema,
  ReCaptchaResponse: z.string().trim().min(1, { error: 'Please complete the captcha.' }).max(10_000),
});
export type StartSignupRequest = z.infer<typeof startSignupRequestSchema>;

export const startSignupResponseSchema = messageResponseSchema;
export type StartSignupResponse = z.infer<typeof startSignupResponseSchema>;

// GET api/v1/emailaddress?guid=: which address a verify (or invitation) link belongs to.
export const signupLinkQuerySchema = z.object({ guid: linkTokenSchema });
export type SignupLinkQuery = z.infer<typeof signupLinkQuerySchema>;

export const signupLinkResponseSchema = z.object({ EmailAddress: z.string() });
export type SignupLinkResponse = z.infer<typeof signupLinkResponseSchema>;

// PUT /api/v1/emailaddress: completes the account. An invited colleague uses the same call with the
// invitation's guid.
export const completeSignupRequestSchema = z.object({
  guid: linkTokenSchema,
  emailAddress: emailAddressSchema,
  password: newPasswordSchema,
  firstName: z.string().trim().min(1, { error: 'First name is required.' }).max(100),
  lastName: z.string().trim().min(1, { error: 'Last name is required.' }).max(100),
  company: optionalTextSchema,
  address1: optionalTextSchema,
  address2: optionalTextSchema,
  city: optionalTextSchema,
  state: optionalTextSchema,
  zipcode: optionalTextSchema,
  country: optionalTextSchema,
  companySize: optionalTextSchema,
  annualRevenue: optionalTextSchema,
  industry: optionalTextSchema,
});
export type CompleteSignupRequest = z.input<typeof completeSignupRequestSchema>;
export type CompleteSignup = z.infer<typeof completeSignupRequestSchema>;

export const completeSignupResponseSchema = messageResponseSchema;
export type CompleteSignupResponse = z.infer<typeof completeSignupResponseSchema>;
