import { describe, expect, it } from 'vitest';
import { createCloudResource } from '../testing/cloud-resource.fixture';
import { createResourceDraft, createSaveItem, hasLocalChange, parseHour } from './resource-draft';

const resource = createCloudResource('vm-1', { TenantId: 't', LastRead: null, Automated: 1 });

describe('parseHour', () => {
  it('reads whole hours 0 through 23', () => {
    expect(parseHour('0')).toBe(0);
    expect(parseHour(' 23 ')).toBe(23);
    expect(parseHour('07')).toBe(7);
  });

  it('refuses anything else', () => {
    for (const text of ['', '24', '-1', '7.5', 'seven', '1e1', '123']) expect(parseHour(text)).toBeNull();
  });
});

describe('hasLocalChange', () => {
  it('sees no change in the saved values, however the hour is written', () => {
    expect(hasLocalChange(resource, createResourceDraft(resource))).toBe(false);
    expect(hasLocalChange(resource, { automated: '1', activeHoursStart: '08', activeHoursEnd: ' 18' })).toBe(
      false,
    );
  });

  it('sees a changed select or hour', () => {
    const draft = createResourceDraft(resource);
    expect(hasLocalChange(resource, { ...draft, automated: '0' })).toBe(true);
    expect(hasLocalChange(resource, { ...draft, activeHoursStart: '9' })).toBe(true);
    expect(hasLocalChange(resource, { ...draft, activeHoursEnd: '' })).toBe(true);
  });

  it('sees no change once an edit is undone', () => {
    const draft = { ...createResourceDraft(resource), activeHoursStart: '9' };
    expect(hasLocalChange(resource, { ...draft, activeHoursStart: '8' })).toBe(false);
  });

  it('reads hours never set as empty inputs', () => {
    const unset = { ...resource, ActiveHoursStart: null, ActiveHoursEnd: null };
    expect(createResourceDraft(unset)).toEqual({ automated: '1', activeHoursStart: '', activeHoursEnd: '' });
    expect(hasLocalChange(unset, createResourceDraft(unset))).toBe(false);
  });
});

describe('createSaveItem', () => {
  it('sends the row’s values as numbers', () => {
    expect(createSaveItem(resource, { automated: '0', activeHoursStart: '6', activeHoursEnd: '22' })).toEqual(
      {
        ResourceId: resource.ResourceId,
        Automated: 0,
        ActiveHoursStart: 6,
        ActiveHoursEnd: 22,
      },
    );
  });

  it('sends nothing while an hour is missing or out of range', () => {
    expect(
      createSaveItem(resource, { automated: '1', activeHoursStart: '', activeHoursEnd: '5' }),
    ).toBeNull();
    expect(
      createSaveItem(resource, { automated: '1', activeHoursStart: '5', activeHoursEnd: '24' }),
    ).toBeNull();
  });
});
