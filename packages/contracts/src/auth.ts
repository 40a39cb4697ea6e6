import { z } from 'zod';

// POST /api/v1/token answers the JWT as a JSON string; DELETE /api/v1/token and /token/all end sessions.
export const tokenRequestSchema = z.object({
  emailAddress: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.string();
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

// What the browser reads from the token (SPEC §3: email, given_name, exp) plus the session id.
export const tokenClaimsSchema = z.object({
  email: z.string(),
  given_name: z.string(),
  exp: z.number().int(),
  sid: z.string(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

export const loginFailedText =
  'The email address and password you entered did not match our records. Please try again.';
