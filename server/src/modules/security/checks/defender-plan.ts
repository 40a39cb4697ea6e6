// What the Defender plan checks share: a plan is on when its pricing's tier is Standard; a
// subscription that never turned Defender for Cloud on has every plan on Free.
import type { CheckFailure } from '../security.check';
import type { SecurityInventory } from '../../../cloud/security-inventory';

export function findPlanOff(inventory: SecurityInventory, plan: string, label: string): CheckFailure[] {
  const pricing = inventory.pricings.find((item) => (item.name ?? '').toLowerCase() === plan.toLowerCase());
  const tier = pricing?.properties?.pricingTier ?? 'Free';
  if (tier.toLowerCase() === 'standard') return [];
  return [
    {
      resourceId:
        pricing?.id ??
        `/subscriptions/${inventory.subscriptionId}/providers/Microsoft.Security/pricings/${plan}`,
      resourceName: `Defender for ${label}`,
      evidence: `The ${plan} pricing tier is ${tier}.`,
    },
  ];
}

export const pricingsReads = 'Microsoft.Security/pricings';
