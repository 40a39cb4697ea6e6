import { findAppServicePlanSize } from '../catalog/platform.catalog';
import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import {
  recordSkuChange,
  type AppServicePlanRecord,
  type AppServicePlanSku,
  type WebSiteRecord,
} from '../fleet/fleet.model';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from './arm.paging';
import { parseJsonBody, readRequestedTags } from './arm.requests';
import { describeAppServicePlan, describeWebSite } from './arm.views';
import {
  findResourceOnPath,
  listResourcesOfType,
  requireResourceGroup,
  requireResourceOnPath,
  sendResourceNotFound,
} from './resource-manager.routes';

const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';
const planType = 'Microsoft.Web/serverfarms';
const siteType = 'Microsoft.Web/sites';

/**
 * App Service plans (list, GET, PATCH of `sku`, DELETE refused while apps remain) and their apps
 * (Microsoft.Web/sites). App Service answers its writes at once (200), without an operation.
 */
export function registerWebRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;

  function requirePlan(
    context: RequestContext,
    parameters: RouteParameters,
  ): AppServicePlanRecord | undefined {
    const name = parameters.name ?? '';
    return requireResourceOnPath<AppServicePlanRecord>(
      fleet,
      context,
      parameters,
      planType,
      `${planType}/${name}`,
      name,
    );
  }

  function listSites(plan: AppServicePlanRecord): WebSiteRecord[] {
    return listResourcesOfType<WebSiteRecord>(fleet, plan.subscriptionId, siteType).filter(
      (site) => site.plan === plan,
    );
  }

  function updatePlan(context: RequestContext, parameters: RouteParameters): void {
    const plan = requirePlan(context, parameters);
    if (!plan) return;
    const body = parseJsonBody(context);
    if (!body) return;
    const sku = body.sku as { name?: unknown; capacity?: unknown } | undefined;
    if (sku !== undefined) {
      const size = typeof sku.name === 'string' ? findAppServicePlanSize(sku.name) : undefined;
      const capacity = typeof sku.capacity === 'number' ? Math.trunc(sku.capacity) : plan.sku.capacity;
      if (!size || capacity < 1) {
        return sendArmError(
          context,
          400,
          'BadRequest',
          `The pricing tier '${String(sku.name)}' is not allowed in this resource group. Use a SKU App Service offers (B1, S1, P1v3, ...) and a capacity of at least 1.`,
        );
      }
      const newSku: AppServicePlanSku = {
        name: size.name,
        tier: size.tier,
        size: size.size,
        family: size.family,
        capacity,
        vcpusPerWorker: size.vcpusPerWorker,
        memoryGiBPerWorker: size.memoryGiBPerWorker,
      };
      if (newSku.name !== plan.sku.name || newSku.capacity !== plan.sku.capacity) {
        plan.sku = newSku;
        recordSkuChange(plan.skuHistory, newSku, settings.readNow().getTime());
      }
    }
    const tags = readRequestedTags(body);
    if (tags) plan.tags = tags;
    countWrite(services.stats, plan.id);
    sendJson(context, 200, describeAppServicePlan(plan));
  }

  function deletePlan(context: RequestContext, parameters: RouteParameters): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const plan = findResourceOnPath<AppServicePlanRecord>(
      fleet,
      parameters,
      planType,
      `${planType}/${parameters.name ?? ''}`,
    );
    if (!plan) return sendJson(context, 204, undefined);
    const sites = listSites(plan);
    if (sites.length > 0) {
      return sendArmError(
        context,
        409,
        'Conflict',
        `Server farm '${plan.name}' cannot be deleted because it has web app(s) ${sites.map((site) => site.name).join(',')} assigned to it.`,
      );
    }
    fleet.deleteResource(plan.id, settings.readNow().getTime());
    countWrite(services.stats, plan.id);
    sendJson(context, 200, undefined);
  }

  router
    .add('GET', `/subscriptions/{subscriptionId}/providers/${planType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<AppServicePlanRecord>(fleet, parameters.subscriptionId ?? '', planType),
        describeAppServicePlan,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${planType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<AppServicePlanRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          planType,
          parameters.resourceGroupName,
        ),
        describeAppServicePlan,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${planType}/{name}`, (context, parameters) => {
      const plan = requirePlan(context, parameters);
      if (plan) sendJson(context, 200, describeAppServicePlan(plan));
    })
    .add('PATCH', `${groupPath}/providers/${planType}/{name}`, updatePlan)
    .add('DELETE', `${groupPath}/providers/${planType}/{name}`, deletePlan)
    .add('GET', `${groupPath}/providers/${planType}/{name}/sites`, (context, parameters) => {
      const plan = requirePlan(context, parameters);
      if (plan) sendPage(context, listSites(plan), describeWebSite, settings.pageSize);
    })
    .add('GET', `/subscriptions/{subscriptionId}/providers/${siteType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<WebSiteRecord>(fleet, parameters.subscriptionId ?? '', siteType),
        describeWebSite,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${siteType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<WebSiteRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          siteType,
          parameters.resourceGroupName,
        ),
        describeWebSite,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${siteType}/{name}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      const site = findResourceOnPath<WebSiteRecord>(
        fleet,
        parameters,
        siteType,
        `${siteType}/${parameters.name ?? ''}`,
      );
      if (!site) {
        return sendResourceNotFound(
          context,
          siteType,
          parameters.name ?? '',
          parameters.resourceGroupName ?? '',
        );
      }
      sendJson(context, 200, describeWebSite(site));
    });
}
