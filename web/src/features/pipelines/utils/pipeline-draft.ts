import {
  pipelineDefinitionSchema,
  type PipelineActionType,
  type PipelineApprovalMode,
  type PipelineDefinition,
  type PipelineDefinitionRequest,
  type PipelineFindingKind,
  type PipelineRecommendationKind,
  type PipelineTagFilter,
  type PipelineTagOperator,
} from '@cloudtrim/contracts/pipelines';
import { checkWithSchema } from '../../../lib/form-errors';

// The builder's values as typed, the definition they make, and the messages shown by each field: the
// contract's own as one types (the preview waits for them to clear), the server's 400 after a save.

export interface TagFilterDraft {
  key: string;
  op: PipelineTagOperator;
  value: string;
}

export interface PipelineDraft {
  name: string;
  tenantIds: string[];
  /** Comma- or line-separated, as typed. */
  subscriptionIds: string;
  resourceGroups: string;
  scopeTags: TagFilterDraft[];
  /** '' for no finding: the tag filters alone, or every resource of the scope. */
  findingKind: PipelineFindingKind | '';
  recommendationKind: PipelineRecommendationKind | '';
  /** Percent, 0 to 100, as people say confidence; the contract's 0 to 1 is built from it. */
  minConfidencePercent: string;
  days: string;
  monthlyCost: string;
  conditionTags: TagFilterDraft[];
  actionType: PipelineActionType;
  actionTagKey: string;
  actionTagValue: string;
  isMaintenanceWindow: boolean;
  cron: string;
  timeZone: string;
  isDryRun: boolean;
  inARow: string;
  blastRadius: string;
  approval: PipelineApprovalMode;
  graceMinutes: string;
}

/** Messages by the definition's field path, as the server names them: `name`, `scope.tags.0.value`. */
export type PipelineFieldErrors = Record<string, string>;

export { formErrorKey, readSaveErrors } from '../../../lib/form-errors';

export const defaultTimeZone = 'Europe/London';

export function createTagFilterDraft(): TagFilterDraft {
  return { key: '', op: 'equals', value: '' };
}

export function createPipelineDraft(): PipelineDraft {
  return {
    name: '',
    tenantIds: [],
    subscriptionIds: '',
    resourceGroups: '',
    scopeTags: [],
    findingKind: '',
    recommendationKind: '',
    minConfidencePercent: '',
    days: '',
    monthlyCost: '',
    conditionTags: [],
    actionType: 'notify',
    actionTagKey: '',
    actionTagValue: '',
    isMaintenanceWindow: false,
    cron: '0 19 * * 1-5',
    timeZone: defaultTimeZone,
    isDryRun: true,
    inARow: '1',
    blastRadius: '10',
    approval: 'destructive',
    graceMinutes: '60',
  };
}

function readTagFilters(filters: readonly PipelineTagFilter[] | undefined): TagFilterDraft[] {
  return (filters ?? []).map((filter) => ({ key: filter.key, op: filter.op, value: filter.value ?? '' }));
}

function writeOptionalNumber(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

export function readPipelineDraft(definition: PipelineDefinition): PipelineDraft {
  const { scope, condition, action, schedule, gates } = definition;
  const finding = condition.finding;
  return {
    name: definition.name,
    tenantIds: [...(scope.tenantIds ?? [])],
    subscriptionIds: (scope.subscriptionIds ?? []).join(', '),
    resourceGroups: (scope.resourceGroups ?? []).join(', '),
    scopeTags: readTagFilters(scope.tags),
    findingKind: finding?.kind ?? '',
    recommendationKind: finding?.recommendationKind ?? '',
    // Rounded so 0.9 reads 90, not 90.00000000000001.
    minConfidencePercent:
      finding?.minConfidence === undefined ? '' : String(Math.round(finding.minConfidence * 10_000) / 100),
    days: writeOptionalNumber(finding?.days),
    monthlyCost: writeOptionalNumber(finding?.monthlyCost),
    conditionTags: readTagFilters(condition.tags),
    actionType: action.type,
    actionTagKey: action.tag?.key ?? '',
    actionTagValue: action.tag?.value ?? '',
    isMaintenanceWindow: !('cron' in schedule),
    cron: 'cron' in schedule ? schedule.cron : '0 19 * * 1-5',
    timeZone: 'cron' in schedule ? schedule.timeZone : defaultTimeZone,
    isDryRun: gates.dryRun,
    inARow: String(gates.inARow),
    blastRadius: String(gates.blastRadius),
    approval: gates.approval,
    graceMinutes: String(gates.graceMinutes),
  };
}

/** A typed number, or NaN for what is not one (the contract then names the field). */
function readNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

function readOptionalNumber(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text.trim());
}

/** `a, b\nc` → ['a', 'b', 'c']; nothing typed → absent (the whole team's). */
function readList(text: string): string[] | undefined {
  const items = text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

function buildTagFilters(filters: readonly TagFilterDraft[]): PipelineTagFilter[] | undefined {
  if (filters.length === 0) return undefined;
  return filters.map((filter) =>
    filter.op === 'exists' || filter.op === 'notExists'
      ? { key: filter.key, op: filter.op }
      : { key: filter.key, op: filter.op, value: filter.value },
  );
}

export function buildPipelineDefinition(draft: PipelineDraft): PipelineDefinitionRequest {
  const minConfidencePercent = readOptionalNumber(draft.minConfidencePercent);
  const usesRecommendation = draft.findingKind === 'recommendation';
  return {
    name: draft.name,
    scope: {
      tenantIds: draft.tenantIds.length > 0 ? draft.tenantIds : undefined,
      subscriptionIds: readList(draft.subscriptionIds),
      resourceGroups: readList(draft.resourceGroups),
      tags: buildTagFilters(draft.scopeTags),
    },
    condition: {
      finding:
        draft.findingKind === ''
          ? undefined
          : {
              kind: draft.findingKind,
              recommendationKind:
                usesRecommendation && draft.recommendationKind !== '' ? draft.recommendationKind : undefined,
              minConfidence:
                usesRecommendation && minConfidencePercent !== undefined
                  ? minConfidencePercent / 100
                  : undefined,
              days: draft.findingKind === 'unattachedDays' ? readNumber(draft.days) : undefined,
              monthlyCost: draft.findingKind === 'costOver' ? readNumber(draft.monthlyCost) : undefined,
            },
      tags: buildTagFilters(draft.conditionTags),
    },
    action: {
      type: draft.actionType,
      tag: draft.actionType === 'tag' ? { key: draft.actionTagKey, value: draft.actionTagValue } : undefined,
    },
    schedule: draft.isMaintenanceWindow
      ? { maintenanceWindow: true }
      : { cron: draft.cron, timeZone: draft.timeZone },
    gates: {
      dryRun: draft.isDryRun,
      inARow: readNumber(draft.inARow),
      blastRadius: readNumber(draft.blastRadius),
      approval: draft.approval,
      graceMinutes: readNumber(draft.graceMinutes),
    },
  };
}

/** The contract's first message for each field; empty when the definition may be sent. */
export function checkPipelineDefinition(definition: PipelineDefinitionRequest): PipelineFieldErrors {
  return checkWithSchema(pipelineDefinitionSchema, definition);
}

/** The first message about `field` or anything inside it (`scope.subscriptionIds.2`). */
export function findFieldError(errors: PipelineFieldErrors, field: string): string | undefined {
  if (errors[field] !== undefined) return errors[field];
  const inside = Object.keys(errors).find((key) => key.startsWith(`${field}.`));
  return inside === undefined ? undefined : errors[inside];
}
