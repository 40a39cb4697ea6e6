import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import type { FleetResource } from '../fleet/fleet.model';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { parseJsonBody } from './arm.requests';

const tagsPath = 'providers/Microsoft.Resources/tags/default';
const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers';
// A resource's tags as Azure's Tags API serves them at its scope: a top-level resource
// (…/providers/Microsoft.Compute/virtualMachines/vm-1) and a child (…/servers/sql-1/databases/db-1).
const scopePatterns = [
  `${groupPath}/{namespace}/{type}/{name}`,
  `${groupPath}/{namespace}/{type}/{name}/{childType}/{childName}`,
];
const operations = ['Merge', 'Replace', 'Delete'] as const;
type TagsOperation = (typeof operations)[number];

/** The Tags API at a resource's scope: GET, and PATCH with Merge, Replace or Delete (each counted). */
export function registerTagsRoutes(router: Router, services: EmulatorServices): void {
  const { fleet } = services;

  function findResource(context: RequestContext, parameters: RouteParameters): FleetResource | undefined {
    const scope = scopeOf(parameters);
    const resource = fleet.findResource(scope);
    if (!resource) {
      sendArmError(context, 404, 'ResourceNotFound', `The Resource '${scope}' was not found.`);
    }
    return resource;
  }

  function describe(resource: FleetResource) {
    return {
      id: `${resource.id}/${tagsPath}`,
      name: 'default',
      type: 'Microsoft.Resources/tags',
      properties: { tags: { ...resource.tags } },
    };
  }

  function patchTags(context: RequestContext, parameters: RouteParameters): void {
    const body = parseJsonBody(context);
    if (!body) return;
    const operation = operations.find((name) => name === body.operation);
    const properties = body.properties as { tags?: unknown } | undefined;
    const tags = properties?.tags;
    if (!operation || !tags || typeof tags !== 'object' || Array.isArray(tags)) {
      return sendArmError(
        context,
        400,
        'InvalidRequestContent',
        "The request must name an operation (Merge, Replace or Delete) and hold 'properties.tags'.",
      );
    }
    const resource = findResource(context, parameters);
    if (!resource) return;
    const requested = Object.fromEntries(
      Object.entries(tags as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
    );
    resource.tags = applyOperation(resource.tags, operation, requested);
    countWrite(services.stats, resource.id);
    sendJson(context, 200, describe(resource));
  }

  for (const pattern of scopePatterns) {
    router
      .add('GET', `${pattern}/${tagsPath}`, (context, parameters) => {
        const resource = findResource(context, parameters);
        if (resource) sendJson(context, 200, describe(resource));
      })
      .add('PATCH', `${pattern}/${tagsPath}`, patchTags);
  }
}

// Merge adds and overwrites, Replace sets exactly these, Delete removes the keys named (with the
// value given, when there is one, as Azure does).
function applyOperation(
  current: Readonly<Record<string, string>>,
  operation: TagsOperation,
  requested: Record<string, string>,
): Record<string, string> {
  if (operation === 'Merge') return { ...current, ...requested };
  if (operation === 'Replace') return requested;
  return Object.fromEntries(
    Object.entries(current).filter(
      ([key, value]) => !(key in requested) || (requested[key] !== '' && requested[key] !== value),
    ),
  );
}

function scopeOf(parameters: RouteParameters): string {
  const parts = [
    'subscriptions',
    parameters.subscriptionId,
    'resourceGroups',
    parameters.resourceGroupName,
    'providers',
    parameters.namespace,
    parameters.type,
    parameters.name,
  ];
  if (parameters.childType) parts.push(parameters.childType, parameters.childName);
  return `/${parts.join('/')}`;
}
