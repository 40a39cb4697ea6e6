import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import { parseJsonBody } from '../arm/arm.requests';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from '../arm/arm.paging';
import { requireSqlServer } from '../arm/sql.routes';
import { requireResourceGroup, sendResourceNotFound } from '../arm/resource-manager.routes';
import type { ArmRecord, SecurityListType } from './security.estate';

const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';
const serverType = 'Microsoft.Sql/servers';
const groupType = 'Microsoft.Network/networkSecurityGroups';

const listedTypes: readonly SecurityListType[] = [
  'Microsoft.Network/networkSecurityGroups',
  'Microsoft.Network/networkInterfaces',
  'Microsoft.Network/virtualNetworks',
  'Microsoft.Network/networkWatchers',
  'Microsoft.Storage/storageAccounts',
  'Microsoft.KeyVault/vaults',
  'Microsoft.Insights/diagnosticSettings',
  'Microsoft.Authorization/roleDefinitions',
  'Microsoft.Security/pricings',
  'Microsoft.Security/secureScores',
  'Microsoft.Security/secureScoreControls',
  'Microsoft.Security/assessments',
];

const describeRecord = (record: ArmRecord) => record;

/**
 * What security posture tools read, each list paged like every Resource Manager list; an NSG's
 * rule can be deleted (how a user fixes an open port), SQL servers answer their firewall rules,
 * auditing and each database's TDE.
 */
export function registerSecurityRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings, security } = services;

  for (const type of listedTypes) {
    router.add('GET', `/subscriptions/{subscriptionId}/providers/${type}`, (context, parameters) => {
      sendPage(
        context,
        security.list(parameters.subscriptionId ?? '', type),
        describeRecord,
        settings.pageSize,
      );
    });
  }

  const requireServer = (context: RequestContext, parameters: RouteParameters) =>
    requireSqlServer(fleet, context, parameters);

  // The network security group the path names; else answers 404 as Azure does, and is undefined.
  function requireGroup(context: RequestContext, parameters: RouteParameters): ArmRecord | undefined {
    if (!requireResourceGroup(fleet, context, parameters)) return undefined;
    const group = security.findNetworkSecurityGroup(
      `/subscriptions/${parameters.subscriptionId ?? ''}/resourceGroups/${parameters.resourceGroupName ?? ''}/providers/${groupType}/${parameters.groupName ?? ''}`,
    );
    if (!group) {
      sendResourceNotFound(
        context,
        groupType,
        parameters.groupName ?? '',
        parameters.resourceGroupName ?? '',
      );
    }
    return group;
  }

  router
    .add('GET', `${groupPath}/providers/${groupType}/{groupName}`, (context, parameters) => {
      const group = requireGroup(context, parameters);
      if (!group) return;
      sendJson(context, 200, group);
    })
    .add(
      'DELETE',
      `${groupPath}/providers/${groupType}/{groupName}/securityRules/{ruleName}`,
      (context, parameters) => {
        const group = requireGroup(context, parameters);
        if (!group) return;
        const ruleId = `${group.id}/securityRules/${parameters.ruleName ?? ''}`;
        // As Azure: deleting a rule that is not there succeeds with 204.
        if (!security.deleteSecurityRule(ruleId)) return sendJson(context, 204, undefined);
        countWrite(services.stats, ruleId);
        sendJson(context, 200, undefined);
      },
    )
    .add(
      'PUT',
      `${groupPath}/providers/${groupType}/{groupName}/securityRules/{ruleName}`,
      (context, parameters) => {
        const group = requireGroup(context, parameters);
        if (!group) return;
        const body = parseJsonBody(context);
        if (!body) return;
        const properties = body.properties;
        if (!properties || typeof properties !== 'object' || Array.isArray(properties)) {
          return sendArmError(
            context,
            400,
            'InvalidRequestFormat',
            'Cannot parse the request: properties are required.',
          );
        }
        const created = security.putSecurityRule(
          group.id,
          parameters.ruleName ?? '',
          properties as Record<string, unknown>,
        );
        if (created) countWrite(services.stats, created.id);
        sendJson(context, 201, created);
      },
    )
    .add('GET', `${groupPath}/providers/${serverType}/{serverName}/firewallRules`, (context, parameters) => {
      const server = requireServer(context, parameters);
      if (!server) return;
      sendJson(context, 200, { value: security.findSqlServer(server.id)?.firewallRules ?? [] });
    })
    .add(
      'GET',
      `${groupPath}/providers/${serverType}/{serverName}/auditingSettings/{settingName}`,
      (context, parameters) => {
        const server = requireServer(context, parameters);
        if (!server) return;
        const auditing = security.findSqlServer(server.id)?.auditing;
        sendJson(context, 200, auditing ?? { name: 'Default', properties: { state: 'Disabled' } });
      },
    )
    .add(
      'GET',
      `${groupPath}/providers/${serverType}/{serverName}/databases/{databaseName}/transparentDataEncryption/{settingName}`,
      (context, parameters) => {
        const server = requireServer(context, parameters);
        if (!server) return;
        const databaseName = (parameters.databaseName ?? '').toLowerCase();
        const setting = security.findSqlServer(server.id)?.transparentDataEncryption.get(databaseName);
        if (!setting) {
          return sendResourceNotFound(
            context,
            'Microsoft.Sql/servers/databases',
            databaseName,
            parameters.resourceGroupName ?? '',
          );
        }
        sendJson(context, 200, setting);
      },
    );
}
