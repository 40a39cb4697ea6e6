import type { EmulatorServices } from '../emulator.services';
import type {
  AppServicePlanRecord,
  FleetResource,
  SqlDatabaseRecord,
  SqlServerRecord,
} from '../fleet/fleet.model';
import { sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from './arm.paging';
import { describeAppServicePlan, describeSqlDatabase, describeSqlServer } from './arm.views';
import { listResourcesOfType, requireResourceGroup, sendResourceNotFound } from './resource-manager.routes';

const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';

/** App Service plans and SQL servers and databases, read-only: enough for a mixed inventory. */
export function registerPlatformRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;

  function sendOne<Resource extends FleetResource>(
    context: RequestContext,
    parameters: RouteParameters,
    type: Resource['type'],
    relativeId: string,
    displayName: string,
    describe: (resource: Resource) => unknown,
  ): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const resource = fleet.findResource(
      `/subscriptions/${parameters.subscriptionId ?? ''}/resourceGroups/${parameters.resourceGroupName ?? ''}/providers/${relativeId}`,
    );
    if (!resource || resource.type !== type) {
      return sendResourceNotFound(context, type, displayName, parameters.resourceGroupName ?? '');
    }
    sendJson(context, 200, describe(resource as Resource));
  }

  router
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/providers/Microsoft.Web/serverfarms',
      (context, parameters) => {
        sendPage(
          context,
          listResourcesOfType<AppServicePlanRecord>(
            fleet,
            parameters.subscriptionId ?? '',
            'Microsoft.Web/serverfarms',
          ),
          describeAppServicePlan,
          settings.pageSize,
        );
      },
    )
    .add('GET', `${groupPath}/providers/Microsoft.Web/serverfarms`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<AppServicePlanRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          'Microsoft.Web/serverfarms',
          parameters.resourceGroupName,
        ),
        describeAppServicePlan,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/Microsoft.Web/serverfarms/{name}`, (context, parameters) => {
      sendOne<AppServicePlanRecord>(
        context,
        parameters,
        'Microsoft.Web/serverfarms',
        `Microsoft.Web/serverfarms/${parameters.name ?? ''}`,
        parameters.name ?? '',
        describeAppServicePlan,
      );
    })
    .add('GET', '/subscriptions/{subscriptionId}/providers/Microsoft.Sql/servers', (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<SqlServerRecord>(fleet, parameters.subscriptionId ?? '', 'Microsoft.Sql/servers'),
        describeSqlServer,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/Microsoft.Sql/servers`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<SqlServerRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          'Microsoft.Sql/servers',
          parameters.resourceGroupName,
        ),
        describeSqlServer,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/Microsoft.Sql/servers/{serverName}`, (context, parameters) => {
      sendOne<SqlServerRecord>(
        context,
        parameters,
        'Microsoft.Sql/servers',
        `Microsoft.Sql/servers/${parameters.serverName ?? ''}`,
        parameters.serverName ?? '',
        describeSqlServer,
      );
    })
    .add(
      'GET',
      `${groupPath}/providers/Microsoft.Sql/servers/{serverName}/databases`,
      (context, parameters) => {
        if (!requireResourceGroup(fleet, context, parameters)) return;
        const serverName = (parameters.serverName ?? '').toLowerCase();
        const server = listResourcesOfType<SqlServerRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          'Microsoft.Sql/servers',
          parameters.resourceGroupName,
        ).find((candidate) => candidate.name.toLowerCase() === serverName);
        if (!server) {
          return sendResourceNotFound(
            context,
            'Microsoft.Sql/servers',
            parameters.serverName ?? '',
            parameters.resourceGroupName ?? '',
          );
        }
        sendPage(
          context,
          listResourcesOfType<SqlDatabaseRecord>(
            fleet,
            parameters.subscriptionId ?? '',
            'Microsoft.Sql/servers/databases',
            parameters.resourceGroupName,
          ).filter((database) => database.serverName.toLowerCase() === serverName),
          describeSqlDatabase,
          settings.pageSize,
        );
      },
    )
    .add(
      'GET',
      `${groupPath}/providers/Microsoft.Sql/servers/{serverName}/databases/{databaseName}`,
      (context, parameters) => {
        sendOne<SqlDatabaseRecord>(
          context,
          parameters,
          'Microsoft.Sql/servers/databases',
          `Microsoft.Sql/servers/${parameters.serverName ?? ''}/databases/${parameters.databaseName ?? ''}`,
          `${parameters.serverName ?? ''}/${parameters.databaseName ?? ''}`,
          describeSqlDatabase,
        );
      },
    );
}
