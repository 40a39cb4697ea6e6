// What a pipeline does with the team's resources, decided without I/O: which match its scope and
// condition, and for each, in order, the gates: the opt-out tag wins, then N evaluations in a row,
// whether the action applies at all, the blast radius (the largest savings first), a dry run, and
// approval for destructive actions. The service reads the candidates and carries the result out.
import {
  pipelineActionLabels,
  pipelineDeleteRecommendationKinds,
  pipelineOptOutTag,
  type PipelineDefinition,
  type PipelineItemOutcome,
  type PipelineScope,
  type PipelineSkipReason,
  type PipelineTagFilter,
} from '@cloudtrim/contracts/pipelines';
import { dayMs } from '../../lib/time';
import { isOptedOut, isProduction, isProtectionTag, readTag } from '../../lib/protection-tags';

export interface CandidateRecommendation {
  id: number;
  kind: string;
  confidence: number | null;
  annualSaving: number;
  text: string;
}

// A resource of the team as the pipeline sees it.
export interface PipelineCandidate {
  resourceId: string;
  tenantId: string;
  canWrite: boolean | null;
  armId: string;
  name: string;
  type: string;
  subcategory: string;
  subscriptionId: string;
  resourceGroup: string;
  powerState: string | null;
  tags: Record<string, string>;
  details: Record<string, unknown>;
  stateSince: Date | null;
  // The resource's own window hour (UTC), else its team's.
  maintenanceWindow: number;
  heldUntil: Date | null;
  // The last 30 days' actual cost, when the condition asks for it.
  monthlyCost: number | null;
  recommendations: CandidateRecommendation[];
}

// What a real run does with an item it acts on.
export type PipelinePlan = 'deallocate' | 'start' | 'apply' | 'notify' | 'tag';

export interface EvaluatedItem {
  candidate: PipelineCandidate;
  outcome: PipelineItemOutcome;
  reason: PipelineSkipReason | null;
  detail: string;
  annualSaving: number;
  // The recommendation the action applies, or whose saving the item carries.
  recommendationId: number | null;
  // Set on the items a real run acts on now or after approval.
  plan: PipelinePlan | null;
  needsApproval: boolean;
}

// What stopping a running VM saves on its schedule (pipelines.savings.ts), and the words for it.
export interface StopSaving {
  annualSaving: number;
  note: string;
  // A start pipeline of the team brings it back: the saving is the off hours', not stopping for good.
  isStartedAgain: boolean;
}

export interface EvaluationOptions {
  now: Date;
  dryRun: boolean;
  // Evaluations in a row each resource matched before this one; absent for a preview (not counted).
  streaks?: ReadonlyMap<string, number>;
  // By resource id, for the running VMs a stop or deallocation matches.
  stopSavings?: ReadonlyMap<string, StopSaving>;
}

const virtualMachineType = 'microsoft.compute/virtualmachines';
const diskType = 'microsoft.compute/disks';
const publicIpType = 'microsoft.network/publicipaddresses';

export function evaluatePipeline(
  definition: PipelineDefinition,
  candidates: readonly PipelineCandidate[],
  options: EvaluationOptions,
): EvaluatedItem[] {
  const items: EvaluatedItem[] = [];
  const eligible: EvaluatedItem[] = [];
  for (const candidate of candidates) {
    if (!isInScope(definition.scope, candidate)) continue;
    const finding = findFinding(definition, candidate, options.now);
    if (!finding.isMatch) continue;
    const item: EvaluatedItem = {
      candidate,
      outcome: 'skipped',
      reason: null,
      detail: '',
      annualSaving: finding.recommendation?.annualSaving ?? 0,
      recommendationId: finding.recommendation?.id ?? null,
      plan: null,
      needsApproval: false,
    };
    items.push(item);
    if (isOptedOut(candidate.tags)) {
      skip(item, 'optedOut', `Tagged ${pipelineOptOutTag}`);
      continue;
    }
    const inARow = (options.streaks?.get(candidate.resourceId) ?? 0) + 1;
    if (options.streaks && inARow < definition.gates.inARow) {
      skip(item, 'notEnoughInARow', `Matched ${inARow} of ${definition.gates.inARow} evaluations in a row`);
      continue;
    }
    const plan = planAction(definition, candidate, finding.recommendation, options);
    if ('reason' in plan) {
      skip(item, plan.reason, plan.detail);
      continue;
    }
    item.plan = plan.plan;
    item.detail = plan.detail;
    if (plan.recommendation) {
      item.recommendationId = plan.recommendation.id;
      item.annualSaving = plan.recommendation.annualSaving;
    } else if (plan.stopSaving) {
      item.recommendationId = null;
      item.annualSaving = plan.stopSaving.annualSaving;
    }
    item.needsApproval = isApprovalNeeded(definition, candidate, plan.plan, plan.recommendation?.kind);
    eligible.push(item);
  }
  // The largest savings first, so a capped run does the most good; then by name, to be stable.
  eligible.sort(
    (first, second) =>
      second.annualSaving - first.annualSaving || first.candidate.name.localeCompare(second.candidate.name),
  );
  eligible.forEach((item, index) => {
    if (index >= definition.gates.blastRadius) {
      skip(item, 'overBlastRadius', `Over the blast radius of ${definition.gates.blastRadius}`);
      item.plan = null;
    } else if (options.dryRun) {
      item.outcome = 'matched';
      item.detail = `Would ${lowerFirst(item.detail)}`;
    } else if (item.needsApproval) {
      item.reason = 'awaitingApproval';
    } else {
      item.outcome = 'acted';
    }
  });
  return items.sort((first, second) => first.candidate.name.localeCompare(second.candidate.name));
}

export { isOptedOut };

// Decided on the change the item will make, whatever the action that asks for it: a deletion (a
// delete action, or a recommendation applied that deletes), a stop, deallocation, shutdown or schedule
// of a VM tagged environment/env = prod/production, and a tag that changes a protection tag (the
// environment, or the opt-out tag: a retag is how a prod VM would lose its protection) always wait;
// 'always' makes every change wait (a notice needs no approval).
export function isApprovalNeeded(
  definition: PipelineDefinition,
  candidate: PipelineCandidate,
  plan: PipelinePlan,
  recommendationKind?: string,
): boolean {
  if (plan === 'notify') return false;
  if (definition.action.type === 'delete' || isDeletionKind(recommendationKind)) return true;
  if (plan === 'tag' && isProtectionTag(definition.action.tag?.key ?? '')) return true;
  if (definition.gates.approval === 'always') return true;
  const isStop = plan === 'deallocate' || (plan === 'apply' && isStopKind(recommendationKind));
  return isStop && candidate.type.toLowerCase() === virtualMachineType && isProduction(candidate.tags);
}

function isDeletionKind(kind: string | undefined): boolean {
  return (
    kind !== undefined &&
    ((pipelineDeleteRecommendationKinds as readonly string[]).includes(kind) || kind.startsWith('delete'))
  );
}

// Recommendations whose change powers a VM off, now or on a schedule.
function isStopKind(kind: string | undefined): boolean {
  return kind === 'shutdown' || kind === 'deallocate' || kind === 'activeHours';
}

// 'All resources', '2 subscriptions · resource group web-rg · tag env = dev'.
export function describeScope(scope: PipelineScope): string {
  const parts: string[] = [];
  const count = (items: readonly unknown[] | undefined, one: string, many: string) => {
    if (items?.length) parts.push(items.length === 1 ? `1 ${one}` : `${items.length} ${many}`);
  };
  count(scope.tenantIds, 'tenant', 'tenants');
  count(scope.subscriptionIds, 'subscription', 'subscriptions');
  if (scope.resourceGroups?.length) {
    parts.push(
      `resource group${scope.resourceGroups.length === 1 ? '' : 's'} ${scope.resourceGroups.join(', ')}`,
    );
  }
  for (const filter of scope.tags ?? []) parts.push(describeTagFilter(filter));
  return parts.length > 0 ? parts.join(' · ') : 'All resources';
}

function describeTagFilter(filter: PipelineTagFilter): string {
  if (filter.op === 'equals') return `tag ${filter.key} = ${filter.value ?? ''}`;
  if (filter.op === 'notEquals') return `tag ${filter.key} ≠ ${filter.value ?? ''}`;
  return filter.op === 'exists' ? `tag ${filter.key}` : `no tag ${filter.key}`;
}

function skip(item: EvaluatedItem, reason: PipelineSkipReason, detail: string): void {
  item.outcome = 'skipped';
  item.reason = reason;
  item.detail = detail;
}

// Whether a pipeline would act on a resource whatever its findings: its scope and condition's tags.
// A condition asking for a finding says nothing certain about a resource before it is judged.
export function isCoveredWithoutFinding(
  definition: PipelineDefinition,
  candidate: PipelineCandidate,
): boolean {
  return (
    !definition.condition.finding &&
    isInScope(definition.scope, candidate) &&
    matchesTags(definition.condition.tags, candidate.tags)
  );
}

// The VMs whose stop or deallocation by this pipeline saves by its schedule: running ones it covers.
export function listStopTargets(
  definition: PipelineDefinition,
  candidates: readonly PipelineCandidate[],
): PipelineCandidate[] {
  const type = definition.action.type;
  if (type !== 'stop' && type !== 'deallocate') return [];
  return candidates.filter(
    (candidate) =>
      candidate.type.toLowerCase() === virtualMachineType &&
      candidate.powerState === 'running' &&
      isInScope(definition.scope, candidate) &&
      matchesTags(definition.condition.tags, candidate.tags),
  );
}

function isInScope(scope: PipelineScope, candidate: PipelineCandidate): boolean {
  if (scope.tenantIds?.length && !scope.tenantIds.includes(candidate.tenantId)) return false;
  if (
    scope.subscriptionIds?.length &&
    !scope.subscriptionIds.includes(candidate.subscriptionId.toLowerCase())
  ) {
    return false;
  }
  const group = candidate.resourceGroup.toLowerCase();
  if (scope.resourceGroups?.length && !scope.resourceGroups.some((name) => name.toLowerCase() === group)) {
    return false;
  }
  return matchesTags(scope.tags, candidate.tags);
}

function matchesTags(
  filters: readonly PipelineTagFilter[] | undefined,
  tags: Record<string, string>,
): boolean {
  return (filters ?? []).every((filter) => {
    const value = readTag(tags, filter.key);
    if (filter.op === 'exists') return value !== undefined;
    if (filter.op === 'notExists') return value === undefined;
    if (filter.op === 'equals') return value === filter.value;
    return value !== filter.value;
  });
}

interface Finding {
  isMatch: boolean;
  recommendation?: CandidateRecommendation;
}

function findFinding(definition: PipelineDefinition, candidate: PipelineCandidate, now: Date): Finding {
  if (!matchesTags(definition.condition.tags, candidate.tags)) return { isMatch: false };
  const finding = definition.condition.finding;
  if (!finding) return { isMatch: true };
  const type = candidate.type.toLowerCase();
  const best = (kinds: readonly string[] | undefined, minConfidence?: number) =>
    pickBest(
      candidate.recommendations.filter(
        (recommendation) =>
          (!kinds || kinds.includes(recommendation.kind)) &&
          (minConfidence === undefined ||
            (recommendation.confidence !== null && recommendation.confidence >= minConfidence)),
      ),
    );
  switch (finding.kind) {
    case 'recommendation': {
      const recommendation = best(
        finding.recommendationKind ? [finding.recommendationKind] : undefined,
        finding.minConfidence,
      );
      return { isMatch: recommendation !== undefined, recommendation };
    }
    case 'idle': {
      const recommendation = best(['shutdown'], finding.minConfidence);
      return { isMatch: recommendation !== undefined, recommendation };
    }
    case 'stoppedNotDeallocated':
      return {
        isMatch: type === virtualMachineType && candidate.powerState === 'stopped',
        recommendation: best(['deallocate']),
      };
    case 'unattachedDays': {
      const since = candidate.stateSince?.getTime();
      const isOldEnough = since !== undefined && now.getTime() - since >= (finding.days ?? 0) * dayMs;
      return {
        isMatch: isUnattached(candidate) && isOldEnough,
        recommendation: best(pipelineDeleteRecommendationKinds),
      };
    }
    case 'costOver':
      return {
        isMatch: candidate.monthlyCost !== null && candidate.monthlyCost > (finding.monthlyCost ?? 0),
        recommendation: best(undefined),
      };
  }
}

function isUnattached(candidate: PipelineCandidate): boolean {
  const type = candidate.type.toLowerCase();
  if (type === diskType) return candidate.details.diskState === 'Unattached';
  if (type === publicIpType) return !candidate.details.ipConfigurationId && !candidate.details.natGatewayId;
  return false;
}

function pickBest(recommendations: CandidateRecommendation[]): CandidateRecommendation | undefined {
  return recommendations.reduce<CandidateRecommendation | undefined>(
    (best, recommendation) =>
      !best || recommendation.annualSaving > best.annualSaving ? recommendation : best,
    undefined,
  );
}

type ActionPlan =
  | {
      plan: PipelinePlan;
      detail: string;
      recommendation?: CandidateRecommendation;
      stopSaving?: StopSaving;
    }
  | { reason: PipelineSkipReason; detail: string };

function planAction(
  definition: PipelineDefinition,
  candidate: PipelineCandidate,
  found: CandidateRecommendation | undefined,
  options: EvaluationOptions,
): ActionPlan {
  const action = definition.action;
  if (action.type === 'notify') return { plan: 'notify', detail: 'Notify the team' };
  if (candidate.canWrite === false) return { reason: 'readOnly', detail: 'The tenant is read-only' };
  if (action.type === 'tag') {
    return { plan: 'tag', detail: `Tag ${action.tag?.key ?? ''} = ${action.tag?.value ?? ''}` };
  }
  const isVm = candidate.type.toLowerCase() === virtualMachineType;
  if (action.type === 'stop' || action.type === 'deallocate') {
    if (!isVm) return { reason: 'notApplicable', detail: 'Not a virtual machine' };
    if (candidate.powerState === 'deallocated')
      return { reason: 'notApplicable', detail: 'Already deallocated' };
    const label = action.type === 'stop' ? 'Stop (deallocate)' : pipelineActionLabels.deallocate;
    const recommendation =
      found ?? pickBest(candidate.recommendations.filter((item) => isShutdownKind(item.kind)));
    // A running VM saves while it is off; stopped for good (no start brings it back), an open
    // recommendation's saving (idle: shut it down) still says what that saves.
    const stopSaving = options.stopSavings?.get(candidate.resourceId);
    if (stopSaving && (stopSaving.isStartedAgain || !recommendation)) {
      return { plan: 'deallocate', detail: `${label}: ${stopSaving.note}`, stopSaving };
    }
    return { plan: 'deallocate', detail: label, recommendation };
  }
  if (action.type === 'start') {
    if (!isVm) return { reason: 'notApplicable', detail: 'Not a virtual machine' };
    if (candidate.powerState === 'running') return { reason: 'notApplicable', detail: 'Already running' };
    return { plan: 'start', detail: pipelineActionLabels.start };
  }
  const recommendation =
    action.type === 'delete'
      ? pickBest(
          candidate.recommendations.filter((item) =>
            (pipelineDeleteRecommendationKinds as readonly string[]).includes(item.kind),
          ),
        )
      : found;
  if (!recommendation) return { reason: 'noRecommendation', detail: 'No open recommendation to apply' };
  if (candidate.heldUntil && candidate.heldUntil.getTime() > options.now.getTime()) {
    return { reason: 'held', detail: `Held after a rollback until ${candidate.heldUntil.toISOString()}` };
  }
  return {
    plan: 'apply',
    detail: `${action.type === 'delete' ? 'Delete' : 'Apply'}: ${recommendation.text}`,
    recommendation,
  };
}

function isShutdownKind(kind: string): boolean {
  return kind === 'shutdown' || kind === 'deallocate';
}

function lowerFirst(text: string): string {
  return text.length > 0 ? `${text[0]!.toLowerCase()}${text.slice(1)}` : text;
}
