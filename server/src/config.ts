// Configuration is read and validated once, here; nothing else reads process.env.
import path from 'node:path';
import { z } from 'zod';
import { readOrCreateSecret, type SecretFileLogger } from './lib/secret-file';

const booleanText = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  // Which proxies' X-Forwarded-For to believe: a hop count, or their addresses / CIDR ranges
  // (comma-separated). Unset, the client address is the socket's: the per-client bounds cannot be
  // dodged by writing the header.
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
        'must be a hop count or addresses / CIDR ranges',
      )
      .transform((value) => (/^\d+$/.test(value) ? Number(value) : value))
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url().optional()),
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ENCRYPTION_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
      .optional(),
  ),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Cloudtrim <no-reply@cloudtrim.dev>'),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  CAPTCHA: z.enum(['altcha', 'recaptcha']).default('altcha'),
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
  RECAPTCHA_SITE_KEY: optionalText,
  RECAPTCHA_SECRET: optionalText,
  RECAPTCHA_VERIFY_URL: optionalText.pipe(z.url().optional()),
  DEMO: optionalText.pipe(booleanText.optional()),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  AZURE_AUTHORITY_HOST: optionalText.pipe(z.url().default('https://login.microsoftonline.com')),
  AZURE_RESOURCE_MANAGER_URL: optionalText.pipe(z.url().default('https://management.azure.com')),
  AZURE_METRICS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/\S+$/, 'must be an http(s):// URL, where {region} stands for the region')
      .default('https://{region}.metrics.monitor.azure.com'),
  ),
  AZURE_PRICES_URL: optionalText.pipe(z.url().default('https://prices.azure.com')),
  AZURE_CA_FILE: optionalText,
  AZURE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
});

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  // Fastify's trustProxy: false, a hop count, or the trusted proxies' addresses.
  trustProxy: false | number | string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailRetryDelaySeconds: number;
  captcha: CaptchaConfig;
  isDemo: boolean;
  role: Role;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  sessionHours: number;
  azure: AzureConfig;
}

// Every Azure endpoint comes from here, so the same code talks to Azure and to the emulator.
export interface AzureConfig {
  authorityHost: string;
  resourceManagerUrl: string;
  // The Azure Monitor metrics endpoint of the batch call; {region}, if present, becomes the region.
  metricsUrlTemplate: string;
  pricesUrl: string;
  // An extra CA certificate (PEM) to trust besides the system's, e.g. the emulator's.
  caFile: string | undefined;
  timeoutMs: number;
}

export interface CaptchaConfig {
  provider: 'altcha' | 'recaptcha';
  altchaMaxNumber: number;
  recaptchaSiteKey: string | undefined;
  recaptchaSecret: string | undefined;
  recaptchaVerifyUrl: string;
}

export interface Secrets {
  jwtSecret: string;
  encryptionKey: Buffer;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(environment: Record<string, string | undefined>): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  if (values.CAPTCHA === 'recaptcha' && (!values.RECAPTCHA_SITE_KEY || !values.RECAPTCHA_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  CAPTCHA: recaptcha needs RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET',
    );
  }
  return {
    port: values.PORT,
    host: values.HOST,
    trustProxy: values.TRUST_PROXY ?? false,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    jwtSecret: values.JWT_SECRET,
    encryptionKey: values.ENCRYPTION_KEY,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    mailRetryDelaySeconds: values.MAIL_RETRY_DELAY_SECONDS,
    captcha: {
      provider: values.CAPTCHA,
      altchaMaxNumber: values.ALTCHA_MAX_NUMBER,
      recaptchaSiteKey: values.RECAPTCHA_SITE_KEY,
      recaptchaSecret: values.RECAPTCHA_SECRET,
      recaptchaVerifyUrl: values.RECAPTCHA_VERIFY_URL ?? 'https://www.google.com/recaptcha/api/siteverify',
    },
    isDemo: values.DEMO ?? values.DATABASE_URL === undefined,
    role: values.ROLE,
    logLevel: values.LOG_LEVEL,
    sessionHours: values.SESSION_HOURS,
    azure: {
      authorityHost: values.AZURE_AUTHORITY_HOST.replace(/\/+$/, ''),
      resourceManagerUrl: values.AZURE_RESOURCE_MANAGER_URL.replace(/\/+$/, ''),
      metricsUrlTemplate: values.AZURE_METRICS_URL.replace(/\/+$/, ''),
      pricesUrl: values.AZURE_PRICES_URL.replace(/\/+$/, ''),
      caFile: values.AZURE_CA_FILE ? path.resolve(values.AZURE_CA_FILE) : undefined,
      timeoutMs: values.AZURE_TIMEOUT_SECONDS * 1000,
    },
  };
}

// Secrets not given by the environment are generated once and kept in DATA_DIR, readable by the
// owner only, so restarts keep sessions valid and stored tenant secrets readable.
export async function resolveSecrets(config: Config, log?: SecretFileLogger): Promise<Secrets> {
  const jwtSecret = config.jwtSecret ?? (await readOrCreateSecret(config.dataDir, 'jwt-secret', 48, log));
  const encryptionKeyHex =
    config.encryptionKey ?? (await readOrCreateSecret(config.dataDir, 'encryption-key', 32, log));
  return { jwtSecret, encryptionKey: Buffer.from(encryptionKeyHex, 'hex') };
}
