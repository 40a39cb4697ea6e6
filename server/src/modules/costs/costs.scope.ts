// The question a costs call asks: its query parsed (a 400 naming the field), its tenant or
// subscription checked as the team's, the scope a filter reads as, and whether a resource lies in it.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { CostFilter } from '@cloudtrim/contracts/costs';
import { badRequest, notFound } from '../../lib/http-errors';
import type { PlannedSaving } from '../automation/automation.repository';
import type { CostScope, CostsRepository } from './costs.repository';

// The routes have validated already; a service called otherwise answers the same 400.
export function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}

export function digestPlanned(planned: PlannedSaving[]): string {
  return createHash('sha256').update(JSON.stringify(planned)).digest('base64url').slice(0, 16);
}

// Another team's tenant or subscription is not found, as every other call answers it.
export async function checkTeamScope(
  costs: Pick<CostsRepository, 'isTeamScope'>,
  teamId: string,
  tenantId?: string,
  subscriptionId?: string,
): Promise<void> {
  if (!tenantId && !subscriptionId) return;
  if (!(await costs.isTeamScope(teamId, tenantId, subscriptionId)))
    throw notFound('Tenant or subscription not found.');
}

export function readCostScope(teamId: string, request: CostFilter): CostScope {
  const [tagName, ...tagValue] = request.tag?.split('=') ?? [];
  return {
    teamId,
    tenantId: request.tenantId,
    subscriptionId: request.subscriptionId,
    resourceGroup: request.resourceGroup,
    service: request.service,
    tag: tagName === undefined ? undefined : { name: tagName, value: tagValue.join('=') },
  };
}

// Whether a resource (ARM id, its tags) lies in a scope's subscription, resource group and tag.
export function isInScope(armId: string, tags: Record<string, string>, scope: CostScope): boolean {
  const id = armId.toLowerCase();
  if (scope.subscriptionId && !id.startsWith(`/subscriptions/${scope.subscriptionId.toLowerCase()}/`))
    return false;
  if (scope.resourceGroup && readResourceGroup(id) !== scope.resourceGroup.toLowerCase()) return false;
  if (scope.tag && (tags[scope.tag.name] ?? '') !== scope.tag.value) return false;
  return true;
}

export function readResourceGroup(resourceId: string): string {
  return /\/resourcegroups\/([^/]+)/i.exec(resourceId)?.[1]?.toLowerCase() ?? '';
}
