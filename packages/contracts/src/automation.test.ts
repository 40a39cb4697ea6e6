import { describe, expect, it } from 'vitest';
import {
  automationLabels,
  automationValues,
  automationOptions,
  formatMaintenanceWindow,
  maintenanceWindowHours,
  toAutomationValue,
} from './automation';

describe('automation constants', () => {
  it('label 0, 1 and 2 as SPEC does', () => {
    expect(automationLabels).toEqual({ 0: 'Recommend', 1: 'Automated', 2: 'No Change' });
    expect(automationOptions.map((option) => option.label)).toEqual([
      'Automate',
      'Recommend Only',
      'No Change',
    ]);
  });

  it('offer every UTC hour as a one-hour maintenance window', () => {
    expect(maintenanceWindowHours).toEqual(Array.from({ length: 24 }, (_, hour) => hour));
    expect(formatMaintenanceWindow(23)).toBe('23:00 - 00:00 UTC');
  });
});

describe('toAutomationValue', () => {
  it('reads a stored mode as the contract names it, anything unknown as Recommend', () => {
    expect(toAutomationValue(automationValues.automated)).toBe(automationValues.automated);
    expect(toAutomationValue(automationValues.noChange)).toBe(automationValues.noChange);
    expect(toAutomationValue(automationValues.recommend)).toBe(automationValues.recommend);
    expect(toAutomationValue(7)).toBe(automationValues.recommend);
  });
});
