import { nameOf, type CheckFailure, type SecurityCheck } from '../security.check';

export const sqlUnrestrictedInboundCheck: SecurityCheck = {
  id: 'sql-unrestricted-inbound',
  title: 'SQL server firewall allows every internet address',
  severity: 'critical',
  reads: 'Microsoft.Sql/servers/firewallRules',
  remediation: {
    text: 'Delete the rule that spans every address and allow only the addresses that need the server.',
    command: 'az sql server firewall-rule delete --resource-group <group> --server <server> --name <rule>',
  },
  cis: '4.1.2',
  evaluate: (inventory) => {
    const failures: CheckFailure[] = [];
    for (const { server, firewallRules } of inventory.sqlServers) {
      // A server that refuses public network access ignores its firewall rules.
      if ((server.properties?.publicNetworkAccess ?? 'Enabled').toLowerCase() === 'disabled') continue;
      const open = firewallRules.find(
        (rule) =>
          rule.properties?.startIpAddress === '0.0.0.0' && rule.properties.endIpAddress === '255.255.255.255',
      );
      if (open && server.id) {
        failures.push({
          resourceId: server.id,
          resourceName: nameOf(server),
          evidence: `Firewall rule '${nameOf(open)}' allows 0.0.0.0 to 255.255.255.255.`,
        });
      }
    }
    return failures;
  },
};
