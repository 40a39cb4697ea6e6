import { hourSchema } from '@cloudtrim/contracts/automation';
import type { CloudResource, SaveCloudResourceItem } from '@cloudtrim/contracts/resources';

/** A row's editable values as the inputs hold them. */
export interface ResourceDraft {
  automated: string;
  activeHoursStart: string;
  activeHoursEnd: string;
}

export function createResourceDraft(resource: CloudResource): ResourceDraft {
  return {
    automated: String(resource.Automated),
    activeHoursStart: resource.ActiveHoursStart === null ? '' : String(resource.ActiveHoursStart),
    activeHoursEnd: resource.ActiveHoursEnd === null ? '' : String(resource.ActiveHoursEnd),
  };
}

/** SPEC §5: active hours are whole hours 0 through 23. */
export function parseHour(text: string): number | null {
  if (!/^\s*\d{1,2}\s*$/.test(text)) return null;
  const result = hourSchema.safeParse(Number(text));
  return result.success ? result.data : null;
}

/** A Save button shows only while the row differs from what the server holds (SPEC §4). */
export function hasLocalChange(resource: CloudResource, draft: ResourceDraft): boolean {
  const saved = createResourceDraft(resource);
  // '07' and '7' are the same hour.
  const normalizeHour = (text: string) => String(parseHour(text) ?? text.trim());
  return (
    draft.automated !== saved.automated ||
    normalizeHour(draft.activeHoursStart) !== normalizeHour(saved.activeHoursStart) ||
    normalizeHour(draft.activeHoursEnd) !== normalizeHour(saved.activeHoursEnd)
  );
}

/** What Save sends, or null while an hour is missing or outside 0-23. */
export function createSaveItem(resource: CloudResource, draft: ResourceDraft): SaveCloudResourceItem | null {
  const activeHoursStart = parseHour(draft.activeHoursStart);
  const activeHoursEnd = parseHour(draft.activeHoursEnd);
  if (activeHoursStart === null || activeHoursEnd === null) return null;
  return {
    ResourceId: resource.ResourceId,
    Automated: draft.automated === '1' ? 1 : 0,
    ActiveHoursStart: activeHoursStart,
    ActiveHoursEnd: activeHoursEnd,
  };
}
