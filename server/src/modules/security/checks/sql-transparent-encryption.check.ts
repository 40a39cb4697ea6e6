import { nameOf, type CheckFailure, type SecurityCheck } from '../security.check';

export const sqlTransparentEncryptionCheck: SecurityCheck = {
  id: 'sql-transparent-encryption',
  title: 'SQL database without transparent data encryption',
  severity: 'high',
  reads: 'Microsoft.Sql/servers/databases/transparentDataEncryption/current',
  remediation: {
    text: 'Turn transparent data encryption on for the database.',
    command:
      'az sql db tde set --resource-group <group> --server <server> --database <database> --status Enabled',
  },
  cis: '4.1.5',
  evaluate: (inventory) => {
    const failures: CheckFailure[] = [];
    for (const { databases } of inventory.sqlServers) {
      for (const { database, transparentDataEncryption } of databases) {
        // master is encrypted by Azure and reports nothing to change.
        if (!database.id || nameOf(database).toLowerCase() === 'master') continue;
        const state = transparentDataEncryption?.properties?.state;
        if ((state ?? '').toLowerCase() === 'enabled') continue;
        failures.push({
          resourceId: database.id,
          resourceName: nameOf(database),
          evidence: `transparentDataEncryption state is ${state ?? 'not set'}.`,
        });
      }
    }
    return failures;
  },
};
