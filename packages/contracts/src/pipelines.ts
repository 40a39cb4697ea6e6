import { z } from 'zod';
import { createGuidSchema, createQueryIntegerSchema, errorResponseSchema, isoDateTimeSchema } from './common';

// Automation Pipelines (issue 19): our own calls, not SPEC's. A pipeline is a policy a team writes once:
// which resources (scope), which of them (condition), what to do (action), when (schedule) and the gates
// between a match and a change in Azure. An edit saves a new version; a run keeps the version it used.

export const maxPipelineListLength = 50;
export const maxPipelineBlastRadius = 1000;
export const maxPipelineInARow = 100;
// A week: the longest a destructive action waits after its notice.
export const maxPipelineGraceMinutes = 10_080;
// The tag a resource carries to keep every pipeline away from it, whatever its value.
export const pipelineOptOutTag = 'cloudtrim:exclude';

const nameSchema = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, { error: 'Name is required.' })
  .max(100, { error: 'Name must be at most 100 characters.' });

const tagKeySchema = z
  .string({ error: 'Tag key is required.' })
  .trim()
  .min(1, { error: 'Tag key is required.' })
  .max(512, { error: 'Tag key must be at most 512 characters.' });

const tagValueSchema = z
  .string({ error: 'Tag value must be text.' })
  .trim()
  .max(256, { error: 'Tag value must be at most 256 characters.' });

export const pipelineTagOperators = ['equals', 'notEquals', 'exists', 'notExists'] as const;
export type PipelineTagOperator = (typeof pipelineTagOperators)[number];

// key = value, key != value (or absent), key exists, key absent. Keys compare case-insensitively as
// Azure's do; values exactly.
export const pipelineTagFilterSchema = z
  .object({
    key: tagKeySchema,
    op: z.enum(pipelineTagOperators, { error: 'Operator must be equals, notEquals, exists or notExists.' }),
    value: tagValueSchema.optional(),
  })
  .superRefine((filter, context) => {
    if ((filter.op === 'equals' || filter.op === 'notEquals') && filter.value === undefined)
      context.addIssue({ code: 'custom', path: ['value'], message: `A ${filter.op} filter needs a value.` });
  });
export type PipelineTagFilter = z.infer<typeof pipelineTagFilterSchema>;

const tagFiltersSchema = z
  .array(pipelineTagFilterSchema)
  .max(20, { error: 'At most 20 tag filters.' })
  .optional();

function createListSchema<T extends z.ZodType>(item: T, label: string) {
  return z
    .array(item)
    .max(maxPipelineListLength, { error: `At most ${maxPipelineListLength} ${label}.` })
    .optional();
}

// Every field absent: all the team's resources.
export const pipelineScopeSchema = z.object({
  tenantIds: createListSchema(createGuidSchema('Tenant id'), 'tenants'),
  subscriptionIds: createListSchema(createGuidSchema('Subscription id'), 'subscriptions'),
  resourceGroups: createListSchema(
    z.string().trim().min(1, { error: 'Resource group is required.' }).max(90),
    'resource groups',
  ),
  tags: tagFiltersSchema,
});
export type PipelineScope = z.infer<typeof pipelineScopeSchema>;

export const pipelineFindingKinds = [
  'recommendation',
  'idle',
  'stoppedNotDeallocated',
  'unattachedDays',
  'costOver',
] as const;
export type PipelineFindingKind = (typeof pipelineFindingKinds)[number];

// The kinds of open recommendation a pipeline can look for; the delete kinds are the waste kinds.
export const pipelineDeleteRecommendationKinds = ['deleteDisk', 'deletePublicIp', 'deletePlan'] as const;
export const pipelineRecommendationKinds = [
  'resize',
  'shutdown',
  'activeHours',
  'deallocate',
  'diskTier',
  'planTier',
  'databaseObjective',
  ...pipelineDeleteRecommendationKinds,
] as const;
export type PipelineRecommendationKind = (typeof pipelineRecommendationKinds)[number];

// recommendation: an open recommendation (of a kind, at a minimum confidence from 0 to 1); idle: an open
// shutdown recommendation; stoppedNotDeallocated: a VM stopped but still billed; unattachedDays: a disk or
// address unattached for at least `days` days (a waste recommendation that old); costOver: a resource
// whose last 30 days cost more than `monthlyCost`.
export const pipelineFindingSchema = z
  .object({
    kind: z.enum(pipelineFindingKinds, {
      error: 'Finding must be recommendation, idle, stoppedNotDeallocated, unattachedDays or costOver.',
    }),
    recommendationKind: z
      .enum(pipelineRecommendationKinds, {
        error: `Recommendation kind must be one of ${pipelineRecommendationKinds.join(', ')}.`,
      })
      .optional(),
    minConfidence: z
      .number({ error: 'Minimum confidence must be a number from 0 to 1.' })
      .min(0, { error: 'Minimum confidence must be from 0 to 1.' })
      .max(1, { error: 'Minimum confidence must be from 0 to 1.' })
      .optional(),
    days: z
      .number({ error: 'Days must be a whole number from 1 to 365.' })
      .int({ error: 'Days must be a whole number from 1 to 365.' })
      .min(1, { error: 'Days must be from 1 to 365.' })
      .max(365, { error: 'Days must be from 1 to 365.' })
      .optional(),
    monthlyCost: z
      .number({ error: 'Monthly cost must be a number.' })
      .gt(0, { error: 'Monthly cost must be more than 0.' })
      .max(1e9, { error: 'Monthly cost must be at most 1000000000.' })
      .optional(),
  })
  .superRefine((finding, context) => {
    if (finding.kind === 'unattachedDays' && finding.days === undefined)
      context.addIssue({ code: 'custom', path: ['days'], message: 'Unattached needs a number of days.' });
    if (finding.kind === 'costOver' && finding.monthlyCost === undefined)
      context.addIssue({ code: 'custom', path: ['monthlyCost'], message: 'Cost over needs a monthly cost.' });
  });
export type PipelineFinding = z.infer<typeof pipelineFindingSchema>;

// A finding and/or tag filters; both absent: every resource of the scope.
export const pipelineConditionSchema = z.object({
  finding: pipelineFindingSchema.optional(),
  tags: tagFiltersSchema,
});
export type PipelineCondition = z.infer<typeof pipelineConditionSchema>;

export const pipelineActionTypes = [
  'notify',
  'tag',
  'stop',
  'deallocate',
  'start',
  'applyRecommendation',
  'delete',
] as const;
export type PipelineActionType = (typeof pipelineActionTypes)[number];

export const pipelineActionLabels: Readonly<Record<PipelineActionType, string>> = {
  notify: 'Notify',
  tag: 'Tag',
  stop: 'Stop',
  deallocate: 'Deallocate',
  start: 'Start',
  applyRecommendation: 'Apply recommendation',
  delete: 'Delete',
};

export const pipelineActionSchema = z
  .object({
    type: z.enum(pipelineActionTypes, { error: `Action must be one of ${pipelineActionTypes.join(', ')}.` }),
    tag: z.object({ key: tagKeySchema, value: tagValueSchema }).optional(),
  })
  .superRefine((action, context) => {
    if (action.type === 'tag' && !action.tag)
      context.addIssue({ code: 'custom', path: ['tag'], message: 'A tag action needs the tag to set.' });
  });
export type PipelineAction = z.infer<typeof pipelineActionSchema>;

// Five fields (minute hour day-of-month month day-of-week), as cron writes them; the server also parses it.
const cronSchema = z
  .string({ error: 'Cron is required.' })
  .trim()
  .max(100, { error: 'Cron must be at most 100 characters.' })
  .regex(/^\S+(\s+\S+){4}$/, { error: 'Cron must have five fields: minute hour day month weekday.' });

// An IANA time zone such as Europe/London, as the runtime knows them.
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone.length > 0;
  } catch {
    return false;
  }
}

const timeZoneSchema = z
  .string({ error: 'Time zone is required.' })
  .trim()
  .max(64)
  .refine(isTimeZone, { error: 'Time zone must be an IANA time zone such as Europe/London.' });

export const pipelineCronScheduleSchema = z.object({ cron: cronSchema, timeZone: timeZoneSchema });
// Each resource's own maintenance window hour (UTC, as Automate's window).
export const pipelineWindowScheduleSchema = z.object({
  maintenanceWindow: z.literal(true, { error: 'maintenanceWindow must be true.' }),
});
export const pipelineScheduleSchema = z.union([pipelineCronScheduleSchema, pipelineWindowScheduleSchema], {
  error: 'Schedule must be { cron, timeZone } or { maintenanceWindow: true }.',
});
export type PipelineSchedule = z.infer<typeof pipelineScheduleSchema>;

export const pipelineApprovalModes = ['destructive', 'always'] as const;
export type PipelineApprovalMode = (typeof pipelineApprovalModes)[number];

// dryRun: scheduled runs only record what they match. inARow: evaluations in a row a resource must match
// before it is acted on. blastRadius: most resources acted on per run. approval: destructive actions
// (delete, stop or deallocate of a VM tagged environment/env = prod/production) always wait for a second
// member's approval; 'always' makes every action wait. graceMinutes: after the notice of an approval, how
// long before an approved action runs (the team's time to reject it).
export const pipelineGatesSchema = z.object({
  dryRun: z.boolean({ error: 'Dry run must be true or false.' }).default(true),
  inARow: z
    .number({ error: `In a row must be a whole number from 1 to ${maxPipelineInARow}.` })
    .int({ error: `In a row must be a whole number from 1 to ${maxPipelineInARow}.` })
    .min(1, { error: `In a row must be from 1 to ${maxPipelineInARow}.` })
    .max(maxPipelineInARow, { error: `In a row must be from 1 to ${maxPipelineInARow}.` })
    .default(1),
  blastRadius: z
    .number({ error: `Blast radius must be a whole number from 1 to ${maxPipelineBlastRadius}.` })
    .int({ error: `Blast radius must be a whole number from 1 to ${maxPipelineBlastRadius}.` })
    .min(1, { error: `Blast radius must be from 1 to ${maxPipelineBlastRadius}.` })
    .max(maxPipelineBlastRadius, { error: `Blast radius must be from 1 to ${maxPipelineBlastRadius}.` })
    .default(10),
  approval: z
    .enum(pipelineApprovalModes, { error: 'Approval must be destructive or always.' })
    .default('destructive'),
  graceMinutes: z
    .number({ error: `Grace minutes must be a whole number from 0 to ${maxPipelineGraceMinutes}.` })
    .int({ error: `Grace minutes must be a whole number from 0 to ${maxPipelineGraceMinutes}.` })
    .min(0, { error: `Grace minutes must be from 0 to ${maxPipelineGraceMinutes}.` })
    .max(maxPipelineGraceMinutes, { error: `Grace minutes must be from 0 to ${maxPipelineGraceMinutes}.` })
    .default(60),
});
export type PipelineGates = z.infer<typeof pipelineGatesSchema>;

// POST /api/v1/pipeline, PUT /api/v1/pipeline/{id} (a new version; the state stays as it was: pause and
// resume have calls of their own), POST /api/v1/pipeline/preview, and what a YAML file holds.
export const pipelineDefinitionSchema = z
  .object({
    name: nameSchema,
    scope: pipelineScopeSchema.default({}),
    condition: pipelineConditionSchema.default({}),
    action: pipelineActionSchema,
    schedule: pipelineScheduleSchema,
    gates: pipelineGatesSchema.default({
      dryRun: true,
      inARow: 1,
      blastRadius: 10,
      approval: 'destructive',
      graceMinutes: 60,
    }),
  })
  .superRefine((definition, context) => {
    const finding = definition.condition.finding;
    if (definition.action.type === 'delete') {
      const isWaste =
        finding?.kind === 'unattachedDays' ||
        (finding?.kind === 'recommendation' &&
          (pipelineDeleteRecommendationKinds as readonly string[]).includes(
            finding.recommendationKind ?? '',
          ));
      if (!isWaste)
        context.addIssue({
          code: 'custom',
          path: ['action', 'type'],
          message:
            'Delete acts only on waste: a condition of unattachedDays or a delete recommendation kind.',
        });
    }
    if (
      definition.action.type === 'applyRecommendation' &&
      finding?.kind !== 'recommendation' &&
      finding?.kind !== 'idle'
    )
      context.addIssue({
        code: 'custom',
        path: ['action', 'type'],
        message: 'Apply recommendation needs a condition of recommendation or idle.',
      });
  });
export type PipelineDefinitionRequest = z.input<typeof pipelineDefinitionSchema>;
export type PipelineDefinition = z.infer<typeof pipelineDefinitionSchema>;

// The published JSON Schema of a pipeline file (GET /api/v1/pipeline/schema.json): what a file may hold,
// defaults optional.
export function createPipelineJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(pipelineDefinitionSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://cloudtrim.app/api/v1/pipeline/schema.json',
    title: 'Cloudtrim automation pipeline',
  };
}

export const pipelineParamsSchema = z.object({ id: createGuidSchema('Pipeline id') });
export type PipelineParams = z.infer<typeof pipelineParamsSchema>;

export const pipelineRunParamsSchema = z.object({ runId: createGuidSchema('Run id') });
export type PipelineRunParams = z.infer<typeof pipelineRunParamsSchema>;

export const pipelineStates = ['active', 'paused'] as const;
export type PipelineState = (typeof pipelineStates)[number];

// running: acting now; succeeded: finished, nothing failed; failed: one item or more failed;
// awaitingApproval: finished but for the items waiting for a colleague's approval.
export const pipelineRunStates = ['running', 'succeeded', 'failed', 'awaitingApproval'] as const;
export type PipelineRunState = (typeof pipelineRunStates)[number];

export const pipelineRunTriggers = ['schedule', 'manual'] as const;
export type PipelineRunTrigger = (typeof pipelineRunTriggers)[number];

export const pipelineLastRunSchema = z.object({
  id: z.string(),
  at: isoDateTimeSchema,
  state: z.enum(pipelineRunStates),
  dryRun: z.boolean(),
  matched: z.number().int(),
  acted: z.number().int(),
});
export type PipelineLastRun = z.infer<typeof pipelineLastRunSchema>;

// GET /api/v1/pipeline: each pipeline as its current version says.
export const pipelineSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(pipelineStates),
  version: z.number().int(),
  // 'All resources', '2 subscriptions · resource group web-rg · tag env = dev'
  scopeSummary: z.string(),
  scope: pipelineScopeSchema,
  action: pipelineActionSchema,
  schedule: pipelineScheduleSchema,
  lastRun: pipelineLastRunSchema.nullable(),
  // The schedule's next tick (null while paused); for the window, the next hour (UTC) one of the team's
  // resources has its window.
  nextRunAt: isoDateTimeSchema.nullable(),
  updatedAt: isoDateTimeSchema,
});
export type PipelineSummary = z.infer<typeof pipelineSummarySchema>;

export const pipelineListQuerySchema = z.object({
  offset: createQueryIntegerSchema(0, 1_000_000_000).default(0),
});
export type PipelineListQuery = z.input<typeof pipelineListQuerySchema>;

// Newest edit first, pageSize (30) a page.
export const pipelineListResponseSchema = z.object({
  pipelines: z.array(pipelineSummarySchema),
  total: z.number().int(),
});
export type PipelineListResponse = z.infer<typeof pipelineListResponseSchema>;

// GET, POST, PUT /api/v1/pipeline/{id}, pause and resume: the summary and the whole current definition.
export const pipelineSchema = pipelineSummarySchema.extend({
  definition: pipelineDefinitionSchema,
  createdBy: z.string(),
  updatedBy: z.string(),
});
export type Pipeline = z.infer<typeof pipelineSchema>;

export const pipelineItemOutcomes = ['matched', 'acted', 'skipped', 'failed'] as const;
export type PipelineItemOutcome = (typeof pipelineItemOutcomes)[number];

// Why a matched resource was not acted on. optedOut: tagged cloudtrim:exclude; notEnoughInARow: matched
// fewer evaluations in a row than the gate asks; overBlastRadius: past the run's K; awaitingApproval: its
// destructive action waits for a colleague; rejected: a colleague rejected it; held: a change of the VM is
// in flight, or its recommendations are held after a rollback; readOnly: its tenant is read-only;
// noRecommendation: no open recommendation to apply; notApplicable: the action does not apply to it (start
// of a running VM, stop of a disk).
export const pipelineSkipReasons = [
  'optedOut',
  'notEnoughInARow',
  'overBlastRadius',
  'awaitingApproval',
  'rejected',
  'held',
  'readOnly',
  'noRecommendation',
  'notApplicable',
] as const;
export type PipelineSkipReason = (typeof pipelineSkipReasons)[number];

export const pipelineItemSchema = z.object({
  resourceId: z.string(),
  resourceName: z.string(),
  // The inventory's kind of resource: 'Virtual Machine', 'Managed Disk', …
  resourceType: z.string(),
  subscriptionId: z.string(),
  resourceGroup: z.string(),
  outcome: z.enum(pipelineItemOutcomes),
  reason: z.enum(pipelineSkipReasons).nullable(),
  // What was done or would be done: 'Deallocate', 'Resize to Standard_D2s_v5', the failure's sentence.
  detail: z.string(),
  annualSaving: z.number(),
});
export type PipelineItem = z.infer<typeof pipelineItemSchema>;

// POST /api/v1/pipeline/preview: a definition not yet saved against the team's resources now (no Azure
// write, nothing recorded; in-a-row is not counted, so no resource is skipped for it).
export const pipelinePreviewResponseSchema = z.object({
  items: z.array(pipelineItemSchema),
  matched: z.number().int(),
  // Those a real run would act on now (blast radius and opt-out applied), and their annual saving.
  wouldAct: z.number().int(),
  annualSaving: z.number(),
});
export type PipelinePreviewResponse = z.infer<typeof pipelinePreviewResponseSchema>;

export const pipelineRunSchema = z.object({
  id: z.string(),
  pipelineId: z.string(),
  pipelineName: z.string(),
  version: z.number().int(),
  trigger: z.enum(pipelineRunTriggers),
  dryRun: z.boolean(),
  state: z.enum(pipelineRunStates),
  // The schedule's tick the run is for (the time of the click for a manual run).
  scheduledFor: isoDateTimeSchema,
  startedAt: isoDateTimeSchema,
  finishedAt: isoDateTimeSchema.nullable(),
  startedBy: z.string().nullable(),
  matched: z.number().int(),
  acted: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  annualSaving: z.number(),
});
export type PipelineRun = z.infer<typeof pipelineRunSchema>;

// POST /api/v1/pipeline/{id}/run
export const pipelineRunRequestSchema = z.object({
  dryRun: z.boolean({ error: 'dryRun must be true or false.' }),
});
export type PipelineRunRequest = z.infer<typeof pipelineRunRequestSchema>;

// GET /api/v1/pipeline/{id}/runs?offset=: newest first, pageSize (30) a page.
export const pipelineRunListQuerySchema = pipelineListQuerySchema;
export type PipelineRunListQuery = z.input<typeof pipelineRunListQuerySchema>;
export const pipelineRunListResponseSchema = z.object({
  runs: z.array(pipelineRunSchema),
  total: z.number().int(),
});
export type PipelineRunListResponse = z.infer<typeof pipelineRunListResponseSchema>;

// POST /api/v1/pipeline/{id}/run and GET /api/v1/pipeline/run/{runId}: the run with its items.
export const pipelineRunDetailSchema = pipelineRunSchema.extend({ items: z.array(pipelineItemSchema) });
export type PipelineRunDetail = z.infer<typeof pipelineRunDetailSchema>;

// GET /api/v1/pipeline/templates: the four starting points of the issue.
export const pipelineTemplateSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  definition: pipelineDefinitionSchema,
});
export type PipelineTemplate = z.infer<typeof pipelineTemplateSchema>;
export const pipelineTemplatesResponseSchema = z.object({ templates: z.array(pipelineTemplateSchema) });
export type PipelineTemplatesResponse = z.infer<typeof pipelineTemplatesResponseSchema>;

// POST /api/v1/pipeline/import: a JSON body `{ yaml }` holding the file's text (a new pipeline, active).
// A bad file answers 400 with the line (1-based) and the field (dotted path) at fault, and saves nothing.
export const pipelineImportRequestSchema = z.object({
  yaml: z
    .string({ error: 'yaml must be the text of a pipeline file.' })
    .min(1, { error: 'yaml must be the text of a pipeline file.' })
    // The transport's bound; the reader refuses past 100000 characters, naming the line.
    .max(1_000_000, { error: 'A pipeline file must be at most 100000 characters.' }),
});
export type PipelineImportRequest = z.infer<typeof pipelineImportRequestSchema>;
export const pipelineImportErrorSchema = errorResponseSchema.extend({ line: z.number().int().optional() });
export type PipelineImportError = z.infer<typeof pipelineImportErrorSchema>;

// GET /api/v1/pipeline/{id}/export answers the current definition as `application/yaml` text.
export const pipelineYamlContentType = 'application/yaml';

export const approvalParamsSchema = z.object({ id: createGuidSchema('Approval id') });
export type ApprovalParams = z.infer<typeof approvalParamsSchema>;

export const approvalDecisions = ['approve', 'reject'] as const;
export type ApprovalDecision = (typeof approvalDecisions)[number];

// POST /api/v1/approval/{id}: the proposer's own answers 403 with approvalOwnProposalText.
export const approvalDecisionRequestSchema = z.object({
  decision: z.enum(approvalDecisions, { error: 'Decision must be approve or reject.' }),
});
export type ApprovalDecisionRequest = z.infer<typeof approvalDecisionRequestSchema>;

export const approvalOwnProposalText = 'A colleague must approve this: you proposed it.';
// Who may decide (issue 23 §2): an Owner or Approver approves, if they are not the proposer (an author
// of a version the run used, or whoever pressed run) and were in the team before the proposal; an
// Owner or Approver may reject until the action has run.
export const approvalRoleText =
  'Only an Owner or Approver of your team can approve this: ask an Owner for the Approver role.';
export const approvalJoinedLaterText =
  'A colleague who was in the team when this was proposed must approve it: you joined after.';
export const rejectionRoleText = 'Only an Owner or Approver of your team can reject this.';

// waiting: for a colleague; approved: runs once its grace period is over (then done); rejected;
// cancelled: its pipeline was paused before it ran.
export const approvalStates = ['waiting', 'approved', 'rejected', 'done', 'cancelled'] as const;
export type ApprovalState = (typeof approvalStates)[number];

export const approvalSchema = z.object({
  id: z.string(),
  pipelineId: z.string(),
  pipelineName: z.string(),
  runId: z.string(),
  action: pipelineActionSchema,
  state: z.enum(approvalStates),
  // The user the run acts for: who saved the pipeline's version (scheduled) or pressed run (manual).
  proposedBy: z.string(),
  proposedAt: isoDateTimeSchema,
  // The grace period's end: an approved action runs no earlier.
  runsAfter: isoDateTimeSchema,
  decidedBy: z.string().nullable(),
  decidedAt: isoDateTimeSchema.nullable(),
  items: z.array(pipelineItemSchema),
  annualSaving: z.number(),
});
export type Approval = z.infer<typeof approvalSchema>;

// An approval as the signed-in user sees it: refusal says why they may not approve it (null when they
// may); mayReject, whether they may reject it (veto) now.
export const callerApprovalSchema = approvalSchema.extend({
  refusal: z.string().nullable(),
  mayReject: z.boolean(),
});
export type CallerApproval = z.infer<typeof callerApprovalSchema>;

// GET /api/v1/approval: the team's approvals waiting for a decision, and those approved but not yet
// run (an Owner or Approver may still reject them), but for the signed-in user's own proposals.
export const approvalListResponseSchema = z.object({ approvals: z.array(callerApprovalSchema) });
export type ApprovalListResponse = z.infer<typeof approvalListResponseSchema>;

// GET and PUT /api/v1/pipeline/limits: how many resources the team's pipelines may act on in an hour,
// across all of them (50 unless set; at most 1,000). A run past it skips the rest (overBlastRadius).
export const pipelineTeamLimitsSchema = z.object({
  blastRadiusPerHour: z
    .number({ error: 'blastRadiusPerHour must be a whole number from 1 to 1000.' })
    .int({ error: 'blastRadiusPerHour must be a whole number from 1 to 1000.' })
    .min(1, { error: 'blastRadiusPerHour must be a whole number from 1 to 1000.' })
    .max(1_000, { error: 'blastRadiusPerHour must be a whole number from 1 to 1000.' }),
});
export type PipelineTeamLimits = z.infer<typeof pipelineTeamLimitsSchema>;
