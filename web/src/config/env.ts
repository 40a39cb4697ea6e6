import { z } from 'zod';

// The only place that reads import.meta.env. Every value has a default so a plain `vite build` works;
// the external menu links (What's New, Help) can be pointed elsewhere at build time.
const envSchema = z.object({
  VITE_API_BASE_URL: z.string().default(''),
  VITE_WHATS_NEW_URL: z.url().default('https://azure.microsoft.com/updates/'),
  VITE_HELP_URL: z.url().default('https://learn.microsoft.com/azure/cost-management-billing/'),
});

const parsedEnv = envSchema.parse(import.meta.env);

export const env = {
  apiBaseUrl: parsedEnv.VITE_API_BASE_URL.replace(/\/$/, ''),
  whatsNewUrl: parsedEnv.VITE_WHATS_NEW_URL,
  helpUrl: parsedEnv.VITE_HELP_URL,
} as const;
