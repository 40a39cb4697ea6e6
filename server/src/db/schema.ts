// The data model (DESIGN.md): team ← user · session · one-time token · invitation · tenant →
// subscription → resource → metric → metric point / hourly aggregate · activity log.
// Every table a signed-in user reads hangs from a team, directly or through its tenant.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const instant = (name: string) => timestamp(name, { withTimezone: true });

export const teams = pgTable('team', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  'app_user',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    company: text('company').notNull().default(''),
    address1: text('address1').notNull().default(''),
    address2: text('address2').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zipcode: text('zipcode').notNull().default(''),
    country: text('country').notNull().default(''),
    companySize: text('company_size').notNull().default(''),
    annualRevenue: text('annual_revenue').notNull().default(''),
    industry: text('industry').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('app_user_email_key').on(table.email), index('app_user_team_idx').on(table.teamId)],
);

export const sessions = pgTable(
  'session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (table) => [index('session_user_idx').on(table.userId)],
);

// Verify and reset links. Only the SHA-256 of the token is stored; the link carries the token.
export const oneTimeTokens = pgTable(
  'one_time_token',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('one_time_token_hash_key').on(table.tokenHash),
    index('one_time_token_email_idx').on(table.purpose, table.email, table.createdAt),
  ],
);

export const invitations = pgTable(
  'invitation',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    acceptedAt: instant('accepted_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('invitation_token_hash_key').on(table.tokenHash),
    uniqueIndex('invitation_pending_email_key')
      .on(table.email)
      .where(sql`accepted_at is null`),
    index('invitation_team_idx').on(table.teamId),
  ],
);

// Fixed-window counters behind every "too many attempts" answer; shared by all API processes.
export const rateLimitHits = pgTable(
  'rate_limit_hit',
  {
    bucketKey: text('bucket_key').notNull(),
    windowStart: instant('window_start').notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.bucketKey, table.windowStart] })],
);

// Solved captcha challenges, kept until they expire so a solution cannot be replayed.
export const usedCaptchaChallenges = pgTable(
  'used_captcha_challenge',
  {
    challenge: text('challenge').primaryKey(),
    expiresAt: instant('expires_at').notNull(),
  },
  (table) => [index('used_captcha_challenge_expires_idx').on(table.expiresAt)],
);

export const tenants = pgTable(
  'tenant',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name').notNull(),
    type: text('type', { enum: ['Azure'] })
      .notNull()
      .default('Azure'),
    azureTenantId: text('azure_tenant_id').notNull(),
    applicationId: text('application_id').notNull(),
    // AES-256-GCM with ENCRYPTION_KEY: base64 of iv ‖ tag ‖ ciphertext. Never returned, never logged.
    encryptedSecret: text('encrypted_secret'),
    status: text('status').notNull().default('Pending'),
    isHealthy: boolean('is_healthy').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    lastSyncAt: instant('last_sync_at'),
    lastError: text('last_error'),
    // Bumped by every change to the tenant's resources, so a cached resource list knows it is stale.
    resourcesVersion: integer('resources_version').notNull().default(0),
    // Kept by each sync, so listing tenants counts nothing.
    resourceCount: integer('resource_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('tenant_team_azure_tenant_key').on(table.teamId, table.azureTenantId)],
);

export const subscriptions = pgTable(
  'subscription',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    displayName: text('display_name').notNull(),
    state: text('state').notNull().default('Enabled'),
  },
  (table) => [uniqueIndex('subscription_tenant_key').on(table.tenantId, table.subscriptionId)],
);

export const resources = pgTable(
  'resource',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    // The ARM id as Azure spells it; lookups compare it lower-cased, as ARM ids are case-insensitive.
    armId: text('arm_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    category: text('category').notNull(),
    subcategory: text('subcategory').notNull(),
    resourceGroup: text('resource_group').notNull(),
    region: text('region').notNull(),
    sku: text('sku'),
    powerState: text('power_state'),
    automated: smallint('automated').notNull().default(0),
    maintenanceWindow: smallint('maintenance_window'),
    activeHoursStart: smallint('active_hours_start'),
    activeHoursEnd: smallint('active_hours_end'),
    predictionMethod: text('prediction_method').notNull().default('p95-14d'),
    lastRead: instant('last_read'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('resource_tenant_arm_id_key').on(table.tenantId, sql`lower(${table.armId})`),
    index('resource_subscription_idx').on(table.subscriptionId),
    index('resource_arm_id_idx').on(sql`lower(${table.armId})`),
  ],
);

export const metrics = pgTable(
  'metric',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    unit: text('unit').notNull(),
    lastCollectedAt: instant('last_collected_at'),
  },
  (table) => [uniqueIndex('metric_resource_name_key').on(table.resourceId, table.name)],
);

// 1-minute points, kept 48 hours.
export const metricPoints = pgTable(
  'metric_point',
  {
    metricId: uuid('metric_id')
      .notNull()
      .references(() => metrics.id, { onDelete: 'cascade' }),
    time: instant('time').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.metricId, table.time] }),
    index('metric_point_time_idx').on(table.time),
  ],
);

// Hourly aggregates, kept 90 days.
export const metricHourly = pgTable(
  'metric_hourly',
  {
    metricId: uuid('metric_id')
      .notNull()
      .references(() => metrics.id, { onDelete: 'cascade' }),
    hour: instant('hour').notNull(),
    average: doublePrecision('average').notNull(),
    maximum: doublePrecision('maximum').notNull(),
    p95: doublePrecision('p95').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.metricId, table.hour] }),
    index('metric_hourly_hour_idx').on(table.hour),
  ],
);

export const activityLogs = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    serviceName: text('service_name').notNull(),
    resourceArmId: text('resource_arm_id'),
    logText: text('log_text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('activity_log_team_idx').on(table.teamId, table.id),
    index('activity_log_team_resource_idx').on(table.teamId, sql`lower(${table.resourceArmId})`, table.id),
  ],
);
