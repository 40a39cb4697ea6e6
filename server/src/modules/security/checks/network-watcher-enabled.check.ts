import type { SecurityCheck } from '../security.check';

export const networkWatcherEnabledCheck: SecurityCheck = {
  id: 'network-watcher-enabled',
  title: 'Network Watcher is not enabled in a region the subscription uses',
  severity: 'low',
  reads: 'Microsoft.Network/networkWatchers, and the regions of the virtual networks',
  remediation: {
    text: 'Enable Network Watcher in every region where the subscription has virtual networks.',
    command:
      'az network watcher configure --resource-group NetworkWatcherRG --locations <region> --enabled true',
  },
  cis: '6.6',
  evaluate: (inventory) => {
    const watched = new Set(
      inventory.networkWatchers
        .filter((watcher) => (watcher.properties?.provisioningState ?? 'Succeeded') === 'Succeeded')
        .map((watcher) => (watcher.location ?? '').toLowerCase()),
    );
    const regions = new Set(
      inventory.virtualNetworks.map((network) => (network.location ?? '').toLowerCase()),
    );
    return [...regions]
      .filter((region) => region !== '' && !watched.has(region))
      .sort()
      .map((region) => ({
        resourceId: `/subscriptions/${inventory.subscriptionId}/providers/Microsoft.Network/networkWatchers/${region}`,
        resourceName: `Network Watcher (${region})`,
        evidence: `Virtual networks in ${region} have no Network Watcher in that region.`,
      }));
  },
};
