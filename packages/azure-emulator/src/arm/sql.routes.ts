import { resolveDatabaseObjective } from '../catalog/platform.catalog';
import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import {
  describeObjectiveSku,
  type Fleet,
  recordSkuChange,
  type SqlDatabaseRecord,
  type SqlServerRecord,
} from '../fleet/fleet.model';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from './arm.paging';
import { parseJsonBody } from './arm.requests';
import { describeSqlDatabase, describeSqlServer } from './arm.views';
import { sendAccepted } from './operation.routes';
import { listResourcesOfType, requireResourceGroup, requireResourceOnPath } from './resource-manager.routes';

const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';
const serverType = 'Microsoft.Sql/servers';
const databaseType = 'Microsoft.Sql/servers/databases';

/** SQL servers and databases; a database's `sku` changes through PATCH, a long-running operation. */
export function registerSqlRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;

  function requireDatabase(
    context: RequestContext,
    parameters: RouteParameters,
  ): SqlDatabaseRecord | undefined {
    const { serverName = '', databaseName = '' } = parameters;
    return requireResourceOnPath<SqlDatabaseRecord>(
      fleet,
      context,
      parameters,
      databaseType,
      `${serverType}/${serverName}/databases/${databaseName}`,
      `${serverName}/${databaseName}`,
    );
  }

  // Azure keeps serving the old objective while the database is copied to the new one, and moves
  // currentServiceObjectiveName when the operation completes; the bill and the metrics follow the
  // objective from the request's minute on.
  function updateDatabase(context: RequestContext, parameters: RouteParameters): void {
    const database = requireDatabase(context, parameters);
    if (!database) return;
    const body = parseJsonBody(context);
    if (!body) return;
    const sku = body.sku as { name?: unknown; capacity?: unknown } | undefined;
    const properties = (body.properties ?? {}) as { maxSizeBytes?: unknown };
    const requestedName = typeof sku?.name === 'string' ? sku.name : undefined;
    const objective =
      requestedName === undefined
        ? undefined
        : resolveDatabaseObjective(
            requestedName,
            typeof sku?.capacity === 'number' ? sku.capacity : undefined,
          );
    if (requestedName !== undefined && !objective) {
      return sendArmError(
        context,
        400,
        'InvalidSkuName',
        `The provided sku name '${requestedName}' is invalid. Check the sku name and capacity and try again.`,
      );
    }
    const maxSizeBytes =
      typeof properties.maxSizeBytes === 'number'
        ? properties.maxSizeBytes
        : Math.min(database.maxSizeBytes, objective?.maxSizeBytes ?? database.maxSizeBytes);
    if (objective && maxSizeBytes > objective.maxSizeBytes) {
      return sendArmError(
        context,
        400,
        'InvalidMaxSizeTierCombination',
        `The tier '${objective.name}' does not support the database max size '${maxSizeBytes}'.`,
      );
    }
    if (maxSizeBytes < database.usedSizeBytes) {
      return sendArmError(
        context,
        400,
        'ProvisioningDisabled',
        `The database max size ${maxSizeBytes} bytes is smaller than the space it uses (${database.usedSizeBytes} bytes).`,
      );
    }
    database.maxSizeBytes = maxSizeBytes;
    const operation = services.operations.create(database.subscriptionId, database.location);
    if (objective && objective.name !== database.sku.serviceObjective) {
      const newSku = describeObjectiveSku(objective);
      recordSkuChange(database.skuHistory, newSku, settings.readNow().getTime());
      database.pendingSku = { sku: newSku, completesAtMs: operation.completesAtMs };
    }
    countWrite(services.stats, database.id);
    sendAccepted(context, services, operation, 'Microsoft.Sql');
  }

  const describeDatabase = (database: SqlDatabaseRecord) => describeSqlDatabase(database);

  router
    .add('GET', `/subscriptions/{subscriptionId}/providers/${serverType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<SqlServerRecord>(fleet, parameters.subscriptionId ?? '', serverType),
        describeSqlServer,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${serverType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<SqlServerRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          serverType,
          parameters.resourceGroupName,
        ),
        describeSqlServer,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${serverType}/{serverName}`, (context, parameters) => {
      const server = requireSqlServer(fleet, context, parameters);
      if (!server) return;
      sendJson(context, 200, describeSqlServer(server));
    })
    .add('GET', `${groupPath}/providers/${serverType}/{serverName}/databases`, (context, parameters) => {
      if (!requireSqlServer(fleet, context, parameters)) return;
      const serverName = (parameters.serverName ?? '').toLowerCase();
      sendPage(
        context,
        listResourcesOfType<SqlDatabaseRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          databaseType,
          parameters.resourceGroupName,
        ).filter((database) => database.serverName.toLowerCase() === serverName),
        describeDatabase,
        settings.pageSize,
      );
    })
    .add(
      'GET',
      `${groupPath}/providers/${serverType}/{serverName}/databases/{databaseName}`,
      (context, parameters) => {
        const database = requireDatabase(context, parameters);
        if (database) sendJson(context, 200, describeDatabase(database));
      },
    )
    .add(
      'PATCH',
      `${groupPath}/providers/${serverType}/{serverName}/databases/{databaseName}`,
      updateDatabase,
    );
}

/** The SQL server the path names; else answers 404 as Azure does, and is undefined. */
export function requireSqlServer(
  fleet: Fleet,
  context: RequestContext,
  parameters: RouteParameters,
): SqlServerRecord | undefined {
  return requireResourceOnPath<SqlServerRecord>(
    fleet,
    context,
    parameters,
    serverType,
    `${serverType}/${parameters.serverName ?? ''}`,
    parameters.serverName ?? '',
  );
}
