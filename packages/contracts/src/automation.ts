import { z } from 'zod';

// Per-resource automation (SPEC §3, §4): 0 Recommend, 1 Automated, 2 No Change.
export const automationValues = { recommend: 0, automated: 1, noChange: 2 } as const;
export type AutomationValue = (typeof automationValues)[keyof typeof automationValues];

export const automationValueSchema = z.union([
  z.literal(automationValues.recommend),
  z.literal(automationValues.automated),
  z.literal(automationValues.noChange),
]);

// A mode as stored (a smallint) read as the contract's value; anything else reads as Recommend.
export function toAutomationValue(stored: number): AutomationValue {
  if (stored === automationValues.automated || stored === automationValues.noChange) return stored;
  return automationValues.recommend;
}

export const automationLabels: Readonly<Record<AutomationValue, string>> = {
  0: 'Recommend',
  1: 'Automated',
  2: 'No Change',
};

// The radio options of the automation modal, in the order and wording of SPEC §4.
export const automationOptions: readonly { value: AutomationValue; label: string }[] = [
  { value: automationValues.automated, label: 'Automate' },
  { value: automationValues.recommend, label: 'Recommend Only' },
  { value: automationValues.noChange, label: 'No Change' },
];

// An hour of the day, used for the maintenance window (UTC) and for active hours.
export const hourSchema = z.number().int().min(0).max(23);

// The maintenance window is the one hour starting at the chosen hour, in UTC.
export const maintenanceWindowHours: readonly number[] = Array.from({ length: 24 }, (_, hour) => hour);

export function formatMaintenanceWindow(hour: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(hour)}:00 - ${pad((hour + 1) % 24)}:00 UTC`;
}
