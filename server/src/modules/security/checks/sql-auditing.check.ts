import { nameOf, type CheckFailure, type SecurityCheck } from '../security.check';

export const sqlAuditingCheck: SecurityCheck = {
  id: 'sql-auditing',
  title: 'SQL server auditing is off',
  severity: 'medium',
  reads: 'Microsoft.Sql/servers/auditingSettings/default',
  remediation: {
    text: 'Turn server auditing on, sending to a storage account or Log Analytics workspace.',
    command:
      'az sql server audit-policy update --resource-group <group> --name <server> --state Enabled --lats Enabled --lawri <workspace id>',
  },
  cis: '4.1.1',
  evaluate: (inventory) => {
    const failures: CheckFailure[] = [];
    for (const { server, auditing } of inventory.sqlServers) {
      if (!server.id || (auditing?.properties?.state ?? 'Disabled').toLowerCase() === 'enabled') continue;
      failures.push({
        resourceId: server.id,
        resourceName: nameOf(server),
        evidence: `auditingSettings state is ${auditing?.properties?.state ?? 'not set'}.`,
      });
    }
    return failures;
  },
};
