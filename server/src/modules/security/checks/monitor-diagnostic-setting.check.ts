import type { SecurityCheck } from '../security.check';

// The activity log categories CIS asks a subscription's diagnostic setting to keep.
const requiredCategories = ['Administrative', 'Security', 'Policy', 'Alert'];

export const monitorDiagnosticSettingCheck: SecurityCheck = {
  id: 'monitor-diagnostic-setting',
  title: 'The activity log is not exported by a diagnostic setting',
  severity: 'medium',
  reads: 'Microsoft.Insights/diagnosticSettings at the subscription',
  remediation: {
    text: 'Create a subscription diagnostic setting that sends the Administrative, Security, Policy and Alert categories to a workspace or storage account.',
    command:
      'az monitor diagnostic-settings subscription create --name activity-log --location <region> --workspace <workspace id> --logs \'[{"categoryGroup":"allLogs","enabled":true}]\'',
  },
  cis: '5.1.1',
  evaluate: (inventory) => {
    const kept = new Set<string>();
    for (const setting of inventory.diagnosticSettings) {
      for (const log of setting.properties?.logs ?? []) {
        if (!log.enabled) continue;
        if ((log.categoryGroup ?? '').toLowerCase() === 'alllogs')
          requiredCategories.forEach((c) => kept.add(c));
        if (log.category) kept.add(log.category);
      }
    }
    const missing = requiredCategories.filter((category) => !kept.has(category));
    if (missing.length === 0) return [];
    return [
      {
        resourceId: `/subscriptions/${inventory.subscriptionId}`,
        resourceName: 'Activity log',
        evidence:
          inventory.diagnosticSettings.length === 0
            ? 'The subscription has no diagnostic setting.'
            : `No diagnostic setting keeps the ${missing.join(', ')} categories.`,
      },
    ];
  },
};
