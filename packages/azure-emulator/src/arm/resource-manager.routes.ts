import { regions } from '../catalog/sku.catalog';
import type { EmulatorServices } from '../emulator.services';
import type { Fleet, FleetResource, PrincipalRecord } from '../fleet/fleet.model';
import { readQuery, sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { compileFilter, FilterSyntaxError, type FieldValue } from '../http/odata.filter';
import { admitTenantRead } from './arm.access';
import { sendPage } from './arm.paging';
import { describeGenericResource, describeResourceGroup, describeSubscription } from './arm.views';

export function sendResourceGroupNotFound(context: RequestContext, name: string): void {
  sendArmError(context, 404, 'ResourceGroupNotFound', `Resource group '${name}' could not be found.`);
}

export function sendResourceNotFound(
  context: RequestContext,
  type: string,
  name: string,
  groupName: string,
): void {
  sendArmError(
    context,
    404,
    'ResourceNotFound',
    `The Resource '${type}/${name}' under resource group '${groupName}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );
}

/** True when the path's resource group exists; else answers 404 ResourceGroupNotFound. */
export function requireResourceGroup(
  fleet: Fleet,
  context: RequestContext,
  parameters: RouteParameters,
): boolean {
  if (fleet.findResourceGroup(parameters.subscriptionId ?? '', parameters.resourceGroupName ?? ''))
    return true;
  sendResourceGroupNotFound(context, parameters.resourceGroupName ?? '');
  return false;
}

/** The resource of `type` the path names (`relativeId` after `/providers/`), if there is one. */
export function findResourceOnPath<Resource extends FleetResource>(
  fleet: Fleet,
  parameters: RouteParameters,
  type: Resource['type'],
  relativeId: string,
): Resource | undefined {
  const resource = fleet.findResource(
    `/subscriptions/${parameters.subscriptionId ?? ''}/resourceGroups/${parameters.resourceGroupName ?? ''}/providers/${relativeId}`,
  );
  return resource?.type === type ? (resource as Resource) : undefined;
}

/**
 * The resource of `type` the path names (`relativeId` after `/providers/`, `name` as Azure's 404 says
 * it); else answers 404, ResourceGroupNotFound or ResourceNotFound as Azure does, and is undefined.
 */
export function requireResourceOnPath<Resource extends FleetResource>(
  fleet: Fleet,
  context: RequestContext,
  parameters: RouteParameters,
  type: Resource['type'],
  relativeId: string,
  name: string,
): Resource | undefined {
  if (!requireResourceGroup(fleet, context, parameters)) return undefined;
  const resource = findResourceOnPath<Resource>(fleet, parameters, type, relativeId);
  if (!resource) sendResourceNotFound(context, type, name, parameters.resourceGroupName ?? '');
  return resource;
}

/** The resources of one type in a subscription, or in one of its groups, in listing order. */
export function listResourcesOfType<Resource extends FleetResource>(
  fleet: Fleet,
  subscriptionId: string,
  type: Resource['type'],
  groupName?: string,
): Resource[] {
  const wantedGroup = groupName?.toLowerCase();
  return fleet
    .listResources(subscriptionId)
    .filter(
      (resource): resource is Resource =>
        resource.type === type && (!wantedGroup || resource.resourceGroupName.toLowerCase() === wantedGroup),
    );
}

function readResourceField(resource: FleetResource, field: string): FieldValue {
  switch (field.toLowerCase()) {
    case 'resourcetype':
      return resource.type;
    case 'location':
      return resource.location;
    case 'name':
      return resource.name;
    case 'resourcegroup':
      return resource.resourceGroupName;
    default:
      return undefined;
  }
}

function sendResourceList(
  services: EmulatorServices,
  context: RequestContext,
  resources: readonly FleetResource[],
): void {
  const filterText = readQuery(context, '$filter');
  let selected = resources;
  if (filterText) {
    try {
      const predicate = compileFilter(filterText, readResourceField, { isCaseSensitive: false });
      selected = resources.filter(predicate);
    } catch (error) {
      if (!(error instanceof FilterSyntaxError)) throw error;
      return sendArmError(
        context,
        400,
        'InvalidFilterInQueryString',
        `Invalid $filter '${filterText}': ${error.message}`,
      );
    }
  }
  const top = Number(readQuery(context, '$top'));
  const pageSize =
    Number.isInteger(top) && top > 0 ? Math.min(top, services.settings.pageSize) : services.settings.pageSize;
  sendPage(context, selected, describeGenericResource, pageSize);
}

/** Subscriptions, tenants, locations, resource groups and the generic resource listing. */
export function registerResourceManagerRoutes(
  router: Router,
  services: EmulatorServices,
  readCaller: (context: RequestContext) => PrincipalRecord,
): void {
  const { fleet } = services;
  router
    .add('GET', '/subscriptions', (context) => {
      const caller = readCaller(context);
      if (!admitTenantRead(services, context, caller)) return;
      const tenant = fleet.findTenant(caller.tenantId);
      const visible = (tenant?.subscriptions ?? []).filter((subscription) =>
        caller.readSubscriptionIds.includes(subscription.subscriptionId),
      );
      sendJson(context, 200, {
        value: visible.map(describeSubscription),
        count: { type: 'Total', value: visible.length },
      });
    })
    .add('GET', '/tenants', (context) => {
      const caller = readCaller(context);
      if (!admitTenantRead(services, context, caller)) return;
      const tenant = fleet.findTenant(caller.tenantId);
      const value = tenant
        ? [
            {
              id: `/tenants/${tenant.tenantId}`,
              tenantId: tenant.tenantId,
              tenantCategory: 'Home',
              country: 'US',
              countryCode: 'US',
              displayName: tenant.displayName,
              domains: [tenant.defaultDomain],
              defaultDomain: tenant.defaultDomain,
              tenantType: 'AAD',
            },
          ]
        : [];
      sendJson(context, 200, { value });
    })
    .add('GET', '/subscriptions/{subscriptionId}', (context, parameters) => {
      const subscription = fleet.findSubscription(parameters.subscriptionId ?? '');
      if (subscription) sendJson(context, 200, describeSubscription(subscription));
    })
    .add('GET', '/subscriptions/{subscriptionId}/locations', (context, parameters) => {
      const subscriptionId = (parameters.subscriptionId ?? '').toLowerCase();
      sendJson(context, 200, {
        value: regions.map((region) => ({
          id: `/subscriptions/${subscriptionId}/locations/${region.name}`,
          name: region.name,
          type: 'Region',
          displayName: region.displayName,
          regionalDisplayName: `(${region.name.endsWith('europe') ? 'Europe' : 'US'}) ${region.displayName}`,
          metadata: { regionType: 'Physical', regionCategory: 'Recommended' },
        })),
      });
    })
    .add('GET', '/subscriptions/{subscriptionId}/resourcegroups', (context, parameters) => {
      sendPage(
        context,
        fleet.listResourceGroups(parameters.subscriptionId ?? ''),
        describeResourceGroup,
        services.settings.pageSize,
      );
    })
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}',
      (context, parameters) => {
        const group = fleet.findResourceGroup(
          parameters.subscriptionId ?? '',
          parameters.resourceGroupName ?? '',
        );
        if (!group) return sendResourceGroupNotFound(context, parameters.resourceGroupName ?? '');
        sendJson(context, 200, describeResourceGroup(group));
      },
    )
    .add(
      'HEAD',
      '/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}',
      (context, parameters) => {
        const group = fleet.findResourceGroup(
          parameters.subscriptionId ?? '',
          parameters.resourceGroupName ?? '',
        );
        sendJson(context, group ? 204 : 404, undefined);
      },
    )
    .add('GET', '/subscriptions/{subscriptionId}/resources', (context, parameters) => {
      sendResourceList(services, context, fleet.listResources(parameters.subscriptionId ?? ''));
    })
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/resourcegroups/{resourceGroupName}/resources',
      (context, parameters) => {
        const group = fleet.findResourceGroup(
          parameters.subscriptionId ?? '',
          parameters.resourceGroupName ?? '',
        );
        if (!group) return sendResourceGroupNotFound(context, parameters.resourceGroupName ?? '');
        const groupName = group.name.toLowerCase();
        sendResourceList(
          services,
          context,
          fleet
            .listResources(group.subscriptionId)
            .filter((resource) => resource.resourceGroupName.toLowerCase() === groupName),
        );
      },
    );
}
