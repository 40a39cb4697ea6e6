// The data model (DESIGN.md): team ← user · session · one-time token · invitation · tenant →
// subscription → resource → metric → metric point / hourly aggregate / packed day · activity log ·
// size catalogue and prices · recommendation → scheduled change · automation log · the bill ·
// budget → budget crossing · alert · pipeline → version · run → item · streak · approval.
// Every table a signed-in user reads hangs from a team, directly or through its tenant.
import type { PipelineAction, PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import { teamRoles } from '@cloudtrim/contracts/team';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const instant = (name: string) => timestamp(name, { withTimezone: true });

export const teams = pgTable('team', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  // How many days of history the engine analyses (7 to 90).
  lookbackDays: smallint('lookback_days').notNull().default(14),
  // The maintenance hour (0-23, UTC) of a resource that has none of its own.
  defaultMaintenanceWindow: smallint('default_maintenance_window').notNull().default(2),
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
    // The user's own mail preferences for alerts (issue 17 §4).
    budgetMails: boolean('budget_mails').notNull().default(true),
    anomalyMails: boolean('anomaly_mails').notNull().default(true),
    // The user's role in their team (issue 23 §2) and since when they are in it: an approval counts
    // only from an Owner or Approver who was a member before the proposal.
    role: text('role', { enum: teamRoles }).notNull().default('Member'),
    joinedTeamAt: instant('joined_team_at').notNull().defaultNow(),
    securityMails: boolean('security_mails').notNull().default(false),
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
    // Whether the principal may change virtual machines (Virtual Machine Contributor); null until checked.
    canWrite: boolean('can_write'),
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
    predictionMethod: text('prediction_method').notNull().default('cloudtrim-forecast'),
    lastRead: instant('last_read'),
    // What sizing must respect, read from the VM by inventory: its OS (prices differ), its data
    // disks and NICs (a smaller size must hold them), premium disks and accelerated networking.
    osType: text('os_type'),
    dataDiskCount: smallint('data_disk_count'),
    nicCount: smallint('nic_count'),
    hasPremiumDisk: boolean('has_premium_disk'),
    hasAcceleratedNetworking: boolean('has_accelerated_networking'),
    // A guard rollback holds this resource's recommendations back until then.
    recommendationsHeldUntil: instant('recommendations_held_until'),
    // The newest metric collection the last analysis saw; a later collection makes it due again.
    // Null when never analysed, or when a setting the analysis reads (lookback, method) changed.
    analysedUntil: instant('analysed_until'),
    // The last active-hours boundary (start or end) acted on, so each is acted on once.
    activeHoursBoundaryAt: instant('active_hours_boundary_at'),
    // When an inventory sync last found the power state changed by someone else (our own changes
    // record their state first, so a sync sees none): active hours leave such a VM alone until the
    // next boundary.
    powerStateChangedAt: instant('power_state_changed_at'),
    // The resource's Azure tags as inventory last read them; cost by tag groups by these.
    tags: jsonb('tags').$type<Record<string, string>>().notNull().default({}),
    // Facts of a disk, public IP, plan or database the generic listing lacks, read by inventory from
    // the type's own listing (camelCase keys, absent when Azure does not say them).
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    // Since when the resource has been in its present state (a VM's power state, a disk's
    // diskState, an IP associated or not): Azure's own time where it gives one, else the first sync
    // that saw the state.
    stateSince: instant('state_since'),
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
    // When its 14 days of hourly history were asked of Azure (the back-fill), whatever came back.
    backfilledAt: instant('backfilled_at'),
  },
  (table) => [uniqueIndex('metric_resource_name_key').on(table.resourceId, table.name)],
);

// 1-minute points, kept 48 hours. Partitioned by range on time, an hour to a partition, with a
// DEFAULT partition (migration 0021; drizzle-kit does not model partitions, modules/metrics/
// metric-partitions.ts makes and drops them). No foreign key to `metric` and no index on time alone
// (migration 0024): at 100,000 VMs this takes 10,000 rows a second, and the key's check of each
// row was a third of an insert. Every read goes through its metric (by metric_id and time), so a
// removed metric's points are out of reach and leave with their hour's partition.
export const metricPoints = pgTable(
  'metric_point',
  {
    metricId: uuid('metric_id').notNull(),
    time: instant('time').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (table) => [primaryKey({ columns: [table.metricId, table.time] })],
);

// Hourly aggregates, kept 90 days. Partitioned by range on hour, a week to a partition, with a
// DEFAULT partition (migration 0021, see metric_point).
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

// The hourly aggregates again, a UTC day of one metric to a row, for the analysis, which reads every
// VM's 14 to 90 days each hour: row by row that was 13 million index entries an hour at 10,000 VMs.
// Each column holds 24 float4 (big-endian, NaN where the hour has no aggregate); `minimums` is the
// lowest 1-minute point of the hour, known only for hours rolled up from points. Written in the
// statement that writes the hours (SQL functions metric_day_place and metric_day_merge, migration
// 0007), purged with them (row by row: not partitioned, see ARCHITECTURE.md). The analysis reads
// them through an index carrying the packed columns (metric_day_read_idx, migration 0023: INCLUDE,
// which drizzle does not model).
export const metricDays = pgTable(
  'metric_day',
  {
    metricId: uuid('metric_id')
      .notNull()
      .references(() => metrics.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    averages: bytea('averages').notNull(),
    maximums: bytea('maximums').notNull(),
    p95s: bytea('p95s').notNull(),
    minimums: bytea('minimums').notNull(),
  },
  (table) => [primaryKey({ columns: [table.metricId, table.day] })],
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

// The size catalogue per region (Resource SKUs), refreshed daily per region in use.
export const vmSizes = pgTable(
  'vm_size',
  {
    region: text('region').notNull(),
    name: text('name').notNull(),
    family: text('family'),
    vcpus: integer('vcpus').notNull(),
    memoryGiB: doublePrecision('memory_gib').notNull(),
    maxDataDisks: integer('max_data_disks'),
    uncachedDiskIops: integer('uncached_disk_iops'),
    maxNics: integer('max_nics'),
    hasPremiumIo: boolean('has_premium_io').notNull().default(false),
    hasAcceleratedNetworking: boolean('has_accelerated_networking').notNull().default(false),
    // False when Azure restricts the size in the region for this subscription.
    isAvailable: boolean('is_available').notNull().default(true),
    readAt: instant('read_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.region, table.name] })],
);

// Pay-as-you-go hourly prices from the Retail Prices API, each with the time it was read.
export const vmPrices = pgTable(
  'vm_price',
  {
    region: text('region').notNull(),
    sizeName: text('size_name').notNull(),
    osType: text('os_type', { enum: ['Linux', 'Windows'] }).notNull(),
    hourlyPrice: doublePrecision('hourly_price').notNull(),
    currencyCode: text('currency_code').notNull().default('USD'),
    readAt: instant('read_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.region, table.sizeName, table.osType] })],
);

// Retail prices of what is not a VM (managed disks by tier, snapshots, public IPs, App Service
// plans, SQL databases), read with vm_price for the regions in use. `variant` is a plan's OS
// ('linux' or 'windows'), empty otherwise; `unit` is Azure's unitOfMeasure.
export const wastePrices = pgTable(
  'waste_price',
  {
    region: text('region').notNull(),
    kind: text('kind', { enum: ['disk', 'snapshot', 'publicIp', 'plan', 'database', 'vcore'] }).notNull(),
    skuName: text('sku_name').notNull(),
    variant: text('variant').notNull().default(''),
    unitPrice: doublePrecision('unit_price').notNull(),
    unit: text('unit').notNull(),
    currencyCode: text('currency_code').notNull().default('USD'),
    readAt: instant('read_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.region, table.kind, table.skuName, table.variant] })],
);

// A right-sizing recommendation. A newer analysis that reaches another conclusion supersedes the
// open one; one that reaches the same conclusion keeps it, so nothing is duplicated.
export const recommendations = pgTable(
  'recommendation',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: [
        'resize',
        'shutdown',
        'activeHours',
        'deleteDisk',
        'deletePublicIp',
        'deallocate',
        'diskTier',
        'deletePlan',
        'planTier',
        'databaseObjective',
      ],
    }).notNull(),
    predictionMethod: text('prediction_method').notNull(),
    currentSize: text('current_size'),
    targetSize: text('target_size'),
    activeHoursStart: smallint('active_hours_start'),
    activeHoursEnd: smallint('active_hours_end'),
    recommendation: text('recommendation').notNull(),
    memo: text('memo'),
    annualCostSavings: doublePrecision('annual_cost_savings').notNull(),
    confidence: doublePrecision('confidence'),
    // What the evidence chart draws: observed and projected series, the threshold.
    evidence: jsonb('evidence'),
    status: text('status', { enum: ['open', 'applied', 'superseded', 'held'] })
      .notNull()
      .default('open'),
    createdAt: createdAt(),
    supersededAt: instant('superseded_at'),
  },
  (table) => [
    index('recommendation_team_idx').on(table.teamId, table.id),
    index('recommendation_resource_idx').on(table.resourceId, table.id),
    uniqueIndex('recommendation_open_key')
      .on(table.resourceId, table.kind)
      .where(sql`status = 'open'`),
  ],
);

// A change to a resource in Azure, planned for a time. It moves planned → claimed → submitted
// (the operation's URL saved) → succeeded or failed, so a restarted worker resumes a submitted
// change by polling its operation and never submits it twice. Re-planning a resource's planned
// change bumps its version in place.
export const scheduledChanges = pgTable(
  'scheduled_change',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    recommendationId: bigint('recommendation_id', { mode: 'number' }).references(() => recommendations.id, {
      onDelete: 'set null',
    }),
    kind: text('kind', {
      enum: [
        'resize',
        'rollback',
        'start',
        'deallocate',
        'deleteDisk',
        'deletePublicIp',
        'diskTier',
        'deletePlan',
        'planTier',
        'databaseObjective',
        'tag',
      ],
    }).notNull(),
    // Why it was planned: a user's apply now or at the window, automation, or the guard.
    origin: text('origin', {
      enum: ['now', 'window', 'automated', 'guard', 'activeHours', 'pipeline'],
    }).notNull(),
    predictionMethod: text('prediction_method'),
    previousSize: text('previous_size'),
    newSize: text('new_size'),
    changeAt: instant('change_at').notNull(),
    version: integer('version').notNull().default(1),
    state: text('state', {
      enum: ['planned', 'claimed', 'submitted', 'succeeded', 'failed', 'cancelled'],
    })
      .notNull()
      .default('planned'),
    // Learnt while executing, saved before the next step.
    wasRunning: boolean('was_running'),
    needsDeallocation: boolean('needs_deallocation'),
    step: text('step'),
    operationUrl: text('operation_url'),
    attempts: integer('attempts').notNull().default(0),
    // The run that holds the change (fencing): every write of a run matches its token, so a run
    // that stalled and was replaced changes nothing. Null between runs.
    claimToken: uuid('claim_token'),
    // Until then the change belongs to its run (or, with no token, to the job sent for it); past
    // it, the dispatcher sends the change again and the next run resumes it.
    leaseUntil: instant('lease_until'),
    // What the VM must still be when the change acts (null: not checked): the size and power state
    // the recommendation was made from. A VM changed by someone since is left as it is.
    expectedSize: text('expected_size'),
    expectedPowerState: text('expected_power_state'),
    error: text('error'),
    // After a resize down succeeds, the guard watches the VM until then.
    guardUntil: instant('guard_until'),
    // The snapshot taken before a disk is deleted (its ARM id), saved before the delete is sent.
    snapshotId: text('snapshot_id'),
    // The tags a 'tag' change merges into the resource's (a pipeline's tag action).
    tags: jsonb('tags').$type<Record<string, string>>(),
    // The pipeline run that asked for the change (origin 'pipeline').
    pipelineRunId: uuid('pipeline_run_id').references((): AnyPgColumn => pipelineRuns.id, {
      onDelete: 'set null',
    }),
    claimedAt: instant('claimed_at'),
    submittedAt: instant('submitted_at'),
    completedAt: instant('completed_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('scheduled_change_team_idx').on(table.teamId, table.changeAt),
    index('scheduled_change_due_idx')
      .on(table.changeAt)
      .where(sql`state = 'planned'`),
    // One planned change from a recommendation per VM (a new plan replaces it as a new version);
    // the guard's and active hours' changes queue beside it.
    uniqueIndex('scheduled_change_planned_key')
      .on(table.resourceId)
      .where(sql`state = 'planned' and origin in ('now', 'window', 'automated')`),
    // One change in flight per VM, whichever path started it.
    uniqueIndex('scheduled_change_in_flight_key')
      .on(table.resourceId)
      .where(sql`state in ('claimed', 'submitted')`),
    index('scheduled_change_lease_idx')
      .on(table.leaseUntil)
      .where(sql`state in ('claimed', 'submitted')`),
    index('scheduled_change_guard_idx')
      .on(table.guardUntil)
      .where(sql`guard_until is not null`),
  ],
);

// What automation did to a resource, step by step (SPEC's Automation Logs).
export const automationLogs = pgTable(
  'automation_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id').references(() => resources.id, { onDelete: 'set null' }),
    resourceArmId: text('resource_arm_id').notNull(),
    friendlyName: text('friendly_name').notNull(),
    predictionMethod: text('prediction_method').notNull(),
    action: text('action').notNull(),
    scheduledChangeId: bigint('scheduled_change_id', { mode: 'number' }).references(
      () => scheduledChanges.id,
      {
        onDelete: 'set null',
      },
    ),
    createdAt: createdAt(),
  },
  (table) => [
    index('automation_log_team_idx').on(table.teamId, table.id),
    index('automation_log_team_resource_idx').on(table.teamId, sql`lower(${table.resourceArmId})`, table.id),
  ],
);

// The bill, as Cost Management reports it: per subscription, resource and service, by day (the last
// 90 days and every re-read of the days still settling) and by month (13 months). Actual and
// amortized cost come from two queries; each column remembers the read that wrote it, so a re-read
// of a period replaces it (what the new read no longer reports is zeroed), never adds to it.
function costColumns() {
  return {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    // Azure's subscription id and the resource's ARM id, lower case as Cost Management reports them.
    subscriptionId: text('subscription_id').notNull(),
    resourceId: text('resource_id').notNull(),
    serviceName: text('service_name').notNull(),
    resourceGroup: text('resource_group').notNull(),
    actualCost: doublePrecision('actual_cost').notNull().default(0),
    amortizedCost: doublePrecision('amortized_cost').notNull().default(0),
    usageQuantity: doublePrecision('usage_quantity').notNull().default(0),
    currency: text('currency').notNull(),
    actualReadId: uuid('actual_read_id'),
    amortizedReadId: uuid('amortized_read_id'),
  };
}

export const costDays = pgTable('cost_day', { ...costColumns(), day: date('day').notNull() }, (table) => [
  primaryKey({
    columns: [table.tenantId, table.subscriptionId, table.day, table.resourceId, table.serviceName],
  }),
  index('cost_day_tenant_day_idx').on(table.tenantId, table.day),
  index('cost_day_resource_idx').on(table.tenantId, table.resourceId, table.day),
]);

// The daily rows summed per subscription, day and service, kept by the page writes that change
// them (CostsRepository.writePage, in the same transaction): the summary, the forecast and the
// charts by service or subscription read these few rows instead of every resource's (a 10,000-VM
// subscription's 120 days are 600,000 rows of cost_day and 2,400 of these).
export const costDayTotals = pgTable(
  'cost_day_total',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    day: date('day').notNull(),
    serviceName: text('service_name').notNull(),
    actualCost: doublePrecision('actual_cost').notNull(),
    amortizedCost: doublePrecision('amortized_cost').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.subscriptionId, table.day, table.serviceName] }),
    index('cost_day_total_tenant_day_idx').on(table.tenantId, table.day),
  ],
);

export const costMonths = pgTable(
  'cost_month',
  { ...costColumns(), month: date('month').notNull() },
  (table) => [
    primaryKey({
      columns: [table.tenantId, table.subscriptionId, table.month, table.resourceId, table.serviceName],
    }),
    index('cost_month_tenant_month_idx').on(table.tenantId, table.month),
  ],
);

// Where reading a subscription's bill stands: the reads still to make (the backfill, or the
// refresh of the settling days), the one under way with its next page, and Cost Management's wait.
export const costSyncs = pgTable(
  'cost_sync',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    // The reads still to make, in order; the first is under way once it carries a read id.
    plan: jsonb('plan').$type<CostRead[]>().notNull().default([]),
    // No call before this: Cost Management's retry-after, kept across processes and restarts.
    notBefore: instant('not_before'),
    backfilledAt: instant('backfilled_at'),
    refreshedAt: instant('refreshed_at'),
    // The principal may not read costs: said once, then asked again only daily.
    deniedAt: instant('denied_at'),
    lastError: text('last_error'),
    // Bumped by every page written, so a cached answer knows the bill changed under it.
    version: integer('version').notNull().default(0),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.subscriptionId] })],
);

export interface CostRead {
  granularity: 'Daily' | 'Monthly';
  costType: 'ActualCost' | 'AmortizedCost';
  from: string;
  to: string;
  // Set when the read starts: what its rows are written with, and the page it has reached.
  readId?: string;
  nextLink?: string | null;
}

// What an applied change saved on the bill: cost per running hour and per day over the settled
// week before and the week after it, against the saving its recommendation promised.
export const realizedSavings = pgTable(
  'realized_saving',
  {
    scheduledChangeId: bigint('scheduled_change_id', { mode: 'number' })
      .primaryKey()
      .references(() => scheduledChanges.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    appliedAt: instant('applied_at').notNull(),
    expectedAnnual: doublePrecision('expected_annual').notNull(),
    realizedAnnual: doublePrecision('realized_annual').notNull(),
    beforeHourly: doublePrecision('before_hourly'),
    afterHourly: doublePrecision('after_hourly'),
    beforeDaily: doublePrecision('before_daily').notNull(),
    afterDaily: doublePrecision('after_daily').notNull(),
    measuredAt: instant('measured_at').notNull(),
  },
  (table) => [index('realized_saving_team_idx').on(table.teamId, table.appliedAt)],
);

// A team's budget on a scope of its bill (all scope columns null: the whole team). Thresholds are kept as
// the contract spells them; a crossing is remembered once per threshold per period in budget_crossing.
export const budgets = pgTable(
  'budget',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id'),
    resourceGroup: text('resource_group'),
    tag: text('tag'),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    period: text('period', { enum: ['monthly', 'quarterly', 'yearly'] }).notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    costType: text('cost_type', { enum: ['actual', 'amortized'] }).notNull(),
    thresholds: jsonb('thresholds').$type<BudgetThresholdRow[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [index('budget_team_idx').on(table.teamId), index('budget_tenant_idx').on(table.tenantId)],
);

export interface BudgetThresholdRow {
  Percent: number;
  Basis: 'actual' | 'forecasted';
  Recipients: { AllTeam: boolean; Emails: string[] };
}

// A threshold crossed in a period (key `150:forecasted`): its row and its alert commit together, so each
// threshold alerts once per period whatever the restarts and workers.
export const budgetCrossings = pgTable(
  'budget_crossing',
  {
    budgetId: uuid('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    thresholdKey: text('threshold_key').notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    crossedAt: instant('crossed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.budgetId, table.thresholdKey, table.periodStart] })],
);

// Budget, anomaly, approval and failed pipeline run alerts of a team; dedupe_key makes raising the same
// one twice a no-op.
export const alerts = pgTable(
  'alert',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['budget', 'anomaly', 'approval', 'pipeline', 'security'] }).notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    title: text('title').notNull(),
    scope: text('scope').notNull(),
    filter: jsonb('filter').$type<Record<string, string>>().notNull().default({}),
    day: date('day', { mode: 'string' }).notNull(),
    raisedAt: instant('raised_at').notNull().defaultNow(),
    amount: doublePrecision('amount').notNull(),
    expected: doublePrecision('expected'),
    currency: text('currency').notNull(),
    drivers: jsonb('drivers').$type<AlertDriverRow[]>().notNull().default([]),
    acknowledgedAt: instant('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('alert_team_dedupe_key').on(table.teamId, table.dedupeKey),
    index('alert_team_raised_idx').on(table.teamId, table.raisedAt, table.id),
  ],
);

export interface AlertDriverRow {
  ResourceId: string;
  Name: string;
  Expected: number;
  Actual: number;
}

// An automation pipeline (issue 19): its current version's definition is in pipeline_version; an edit
// adds a version. active_since: when it was created or last resumed, so no tick before it fires.
export const pipelines = pgTable(
  'pipeline',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: text('state', { enum: ['active', 'paused'] })
      .notNull()
      .default('active'),
    version: integer('version').notNull().default(1),
    activeSince: instant('active_since').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [index('pipeline_team_idx').on(table.teamId, table.updatedAt)],
);

// Every version of a pipeline as saved, by whom (the proposer of the runs made with it).
export const pipelineVersions = pgTable(
  'pipeline_version',
  {
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<PipelineDefinition>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.pipelineId, table.version] })],
);

// One evaluation of a pipeline. A scheduled run is claimed by inserting it: the unique key on
// (pipeline, tick) lets one worker of many record a tick's run.
export const pipelineRuns = pgTable(
  'pipeline_run',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual'] }).notNull(),
    dryRun: boolean('dry_run').notNull(),
    state: text('state', { enum: ['running', 'succeeded', 'failed', 'awaitingApproval'] })
      .notNull()
      .default('running'),
    scheduledFor: instant('scheduled_for').notNull(),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: instant('started_at').notNull(),
    finishedAt: instant('finished_at'),
    matched: integer('matched').notNull().default(0),
    acted: integer('acted').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    annualSaving: doublePrecision('annual_saving').notNull().default(0),
  },
  (table) => [
    index('pipeline_run_pipeline_idx').on(table.pipelineId, table.startedAt),
    uniqueIndex('pipeline_run_tick_key')
      .on(table.pipelineId, table.scheduledFor)
      .where(sql`"trigger" = 'schedule'`),
    // The team's blast radius an hour counts its runs started in the last hour.
    index('pipeline_run_team_idx').on(table.teamId, table.startedAt),
  ],
);

// What a run did with each resource it matched: acted, skipped (and why), failed, or only matched (a
// dry run). The resource's names are copied so the history outlives it.
export const pipelineRunItems = pgTable(
  'pipeline_run_item',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => pipelineRuns.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id').references(() => resources.id, { onDelete: 'set null' }),
    resourceArmId: text('resource_arm_id').notNull(),
    resourceName: text('resource_name').notNull(),
    resourceType: text('resource_type').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    resourceGroup: text('resource_group').notNull(),
    outcome: text('outcome', { enum: ['matched', 'acted', 'skipped', 'failed'] }).notNull(),
    reason: text('reason'),
    detail: text('detail').notNull(),
    annualSaving: doublePrecision('annual_saving').notNull().default(0),
    recommendationId: bigint('recommendation_id', { mode: 'number' }).references(() => recommendations.id, {
      onDelete: 'set null',
    }),
    approvalId: uuid('approval_id').references((): AnyPgColumn => pipelineApprovals.id, {
      onDelete: 'set null',
    }),
  },
  (table) => [
    index('pipeline_run_item_run_idx').on(table.runId, table.id),
    index('pipeline_run_item_approval_idx')
      .on(table.approvalId)
      .where(sql`approval_id is not null`),
  ],
);

// How many evaluations in a row a pipeline has matched a resource (the in-a-row gate); a resource it
// no longer matches loses its row.
export const pipelineStreaks = pgTable(
  'pipeline_streak',
  {
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
    lastMatchedAt: instant('last_matched_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.pipelineId, table.resourceId] })],
);

// A run's destructive actions waiting for a second member of the team: approved, they run once
// runs_after (the notice plus the grace period) has passed; the proposer may not approve their own.
export const pipelineApprovals = pgTable(
  'pipeline_approval',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    runId: uuid('run_id')
      .notNull()
      .references(() => pipelineRuns.id, { onDelete: 'cascade' }),
    action: jsonb('action').$type<PipelineAction>().notNull(),
    state: text('state', { enum: ['waiting', 'approved', 'rejected', 'done', 'cancelled'] })
      .notNull()
      .default('waiting'),
    proposedBy: uuid('proposed_by').references(() => users.id, { onDelete: 'set null' }),
    proposedAt: instant('proposed_at').notNull(),
    runsAfter: instant('runs_after').notNull(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: instant('decided_at'),
    // When its approved items were acted on: they count against the team's blast radius from then.
    carriedOutAt: instant('carried_out_at'),
  },
  (table) => [
    index('pipeline_approval_team_idx').on(table.teamId, table.state),
    index('pipeline_approval_carried_out_idx')
      .on(table.teamId, table.carriedOutAt)
      .where(sql`carried_out_at is not null`),
    index('pipeline_approval_due_idx')
      .on(table.runsAfter)
      .where(sql`state = 'approved'`),
  ],
);

// The open approvals (waiting, or approved and not yet run) by resource and action: one at most, so a
// pipeline matching the same resources every minute proposes them once. A row leaves with its
// approval's decision, carrying out or cancelling.
export const pipelineOpenApprovals = pgTable(
  'pipeline_open_approval',
  {
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    actionKey: text('action_key').notNull(),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => pipelineApprovals.id, { onDelete: 'cascade' }),
  },
  (table) => [
    uniqueIndex('pipeline_open_approval_key').on(table.resourceId, table.actionKey),
    index('pipeline_open_approval_approval_idx').on(table.approvalId),
  ],
);

// A team's limit across all its pipelines (issue 23): how many resources they may act on in an hour
// (pipelines.limits.ts: 50 unless the team sets another, up to 1,000). A team without a row has the
// default.
export const teamPipelineLimits = pgTable('team_pipeline_limit', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  blastRadiusPerHour: integer('blast_radius_per_hour').notNull().default(50),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

// Security (issue 25): one row per check and resource a scan found at fault, kept when fixed
// (resolved_at) and reopened when it comes back; its events are its history. A mute is on the
// finding (muted_until, a day) or comes from a mute rule matching its check and resource group or tag.
export const securityFindings = pgTable(
  'security_finding',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    checkId: text('check_id').notNull(),
    // The ARM id as Azure spelled it; resource_key is its lower case, the finding's identity.
    resourceId: text('resource_id').notNull(),
    resourceKey: text('resource_key').notNull(),
    resourceName: text('resource_name').notNull(),
    resourceGroup: text('resource_group').notNull().default(''),
    resourceTags: jsonb('resource_tags').$type<Record<string, string>>().notNull().default({}),
    severity: text('severity', { enum: ['critical', 'high', 'medium', 'low'] }).notNull(),
    evidence: text('evidence').notNull(),
    firstSeen: instant('first_seen').notNull(),
    lastSeen: instant('last_seen').notNull(),
    resolvedAt: instant('resolved_at'),
    muteReason: text('mute_reason'),
    mutedUntil: date('muted_until', { mode: 'string' }),
    mutedBy: text('muted_by'),
    mutedAt: instant('muted_at'),
  },
  (table) => [
    uniqueIndex('security_finding_identity_key').on(table.tenantId, table.checkId, table.resourceKey),
    index('security_finding_team_idx').on(table.teamId, table.resolvedAt),
  ],
);

export const securityFindingEvents = pgTable(
  'security_finding_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    findingId: uuid('finding_id')
      .notNull()
      .references(() => securityFindings.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['opened', 'resolved', 'reopened', 'muted', 'unmuted'] }).notNull(),
    at: instant('at').notNull(),
    by: text('by'),
    note: text('note'),
  },
  (table) => [index('security_finding_event_finding_idx').on(table.findingId, table.id)],
);

// Mutes a check for a resource group or a tag (key, and value when given), today's findings and
// future ones, until its day has passed.
export const securityMuteRules = pgTable(
  'security_mute_rule',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    checkId: text('check_id').notNull(),
    resourceGroup: text('resource_group'),
    tagKey: text('tag_key'),
    tagValue: text('tag_value'),
    reason: text('reason').notNull(),
    until: date('until', { mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('security_mute_rule_team_idx').on(table.teamId)],
);

// Azure keeps no history of the secure score: one row per subscription and day, the day's last scan
// winning. Defender off: no score, defender_enabled false.
export const securityScores = pgTable(
  'security_score',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    isDefenderEnabled: boolean('defender_enabled').notNull(),
    current: doublePrecision('current'),
    max: doublePrecision('max'),
    percentage: doublePrecision('percentage'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.subscriptionId, table.day] })],
);

// The last scan of each team, asked for or run with a sync: an asked-for scan within a minute of it is refused.
// version: bumped by every write to the team's findings, scores and mute rules (after the write),
// so the summary computed under one version holds while it does (SecurityService.summarize).
export const securityScans = pgTable('security_scan', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  requestedAt: instant('requested_at'),
  finishedAt: instant('finished_at'),
  version: integer('version').notNull().default(0),
});

// How a resource's present state was dated (resource.state_since), once per state: from the Activity
// Log (the write that detached a public IP or created it unassociated, a VM's powerOff), from the
// last minute Azure Monitor had CPU for a VM stopped from its guest, or by nothing (source null:
// state_since stays the first sync that saw the state). state_since here is the value it was dated
// to; a resource whose state_since moved since (its state changed) is dated again.
export const resourceStateDatings = pgTable('resource_state_dating', {
  resourceId: uuid('resource_id')
    .primaryKey()
    .references(() => resources.id, { onDelete: 'cascade' }),
  stateSince: instant('state_since').notNull(),
  source: text('source').$type<'activity-log' | 'metrics'>(),
  checkedAt: instant('checked_at').notNull(),
});
