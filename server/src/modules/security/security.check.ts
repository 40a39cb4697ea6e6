// A security check: a pure function over one subscription's inventory, with what a user needs to
// judge and fix what it finds.
import type { SecurityInventory } from '../../cloud/security-inventory';

export type SecuritySeverity = 'critical' | 'high' | 'medium' | 'low';

export interface CheckFailure {
  resourceId: string;
  resourceName: string;
  /** What was read that fails, in a sentence. */
  evidence: string;
}

export interface SecurityCheck {
  /** Stable: findings and mute rules keep it. */
  id: string;
  title: string;
  severity: SecuritySeverity;
  /** The Resource Manager reads it judges. */
  reads: string;
  remediation: { text: string; command: string };
  /** CIS Microsoft Azure Foundations Benchmark 2.0.0 control. */
  /** The CIS Microsoft Azure Foundations 2.0.0 control ('6.2'); empty where 2.0.0 has none. */
  cis: string;
  evaluate(inventory: SecurityInventory, now: Date): CheckFailure[];
}

export function nameOf(item: { id?: string; name?: string }): string {
  return item.name ?? item.id?.split('/').pop() ?? '';
}

/** Failures for each item the predicate finds at fault (undefined: fine). */
export function failEach<Item extends { id?: string; name?: string }>(
  items: readonly Item[],
  judge: (item: Item) => string | undefined,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const item of items) {
    if (!item.id) continue;
    const evidence = judge(item);
    if (evidence !== undefined) failures.push({ resourceId: item.id, resourceName: nameOf(item), evidence });
  }
  return failures;
}
