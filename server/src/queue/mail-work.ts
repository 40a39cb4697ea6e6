// The mail jobs by name and payload, for the services that enqueue them; the job files
// (send-email.job.ts, send-password-reset.job.ts) attach the handlers. Kept apart from the handlers,
// which reach the services, so a service never imports the file that imports it.
import { z } from 'zod';

// The body is sealed (AES-256-GCM with ENCRYPTION_KEY): it carries a one-time link, and pg-boss keeps
// payloads in its tables for days.
export const sendEmailPayloadSchema = z.object({
  to: z.email(),
  subject: z.string().min(1),
  sealedBody: z.string().min(1),
});
export type SendEmailPayload = z.infer<typeof sendEmailPayloadSchema>;

export const sendEmailQueue = { name: 'send-email', payload: sendEmailPayloadSchema };

export const sendPasswordResetPayloadSchema = z.object({ email: z.email() });

export const sendPasswordResetQueue = {
  name: 'send-password-reset',
  payload: sendPasswordResetPayloadSchema,
};
