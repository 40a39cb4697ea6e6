import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWriteCount } from './emulator.stats';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const tagsApi = 'providers/Microsoft.Resources/tags/default?api-version=2021-04-01';

interface TagsView {
  readonly id: string;
  readonly properties: { readonly tags: Record<string, string> };
}

describe('Tags at a resource scope (Microsoft.Resources/tags, raw calls)', () => {
  let kit: TestEmulator;
  let token: string;
  let subscriptionId: string;

  beforeAll(async () => {
    kit = await startTestEmulator({ fleetSize: 12 });
    token = await kit.readToken(0, 0);
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  function pickMachine() {
    const machine = kit.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.subscriptionId === subscriptionId,
    );
    if (!machine) throw new Error('The fleet has a VM in the subscription');
    return machine;
  }

  async function patchTags(resourceId: string, operation: string, tags: Record<string, string>) {
    return kit.send('PATCH', `${resourceId}/${tagsApi}`, {
      token,
      body: JSON.stringify({ operation, properties: { tags } }),
      contentType: 'application/json',
    });
  }

  it('merges, replaces and deletes a VM’s tags, each write counted, the VM listed with them', async () => {
    const machine = pickMachine();
    const before = { ...machine.tags };
    const writes = readWriteCount(kit.emulator.stats, machine.id);

    const merged = await patchTags(machine.id, 'Merge', { owner: 'ops' });
    expect(merged.status).toBe(200);
    expect((merged.body as TagsView).properties.tags).toEqual({ ...before, owner: 'ops' });
    // Merging the same tag again changes nothing but is still a write Azure accepted.
    await patchTags(machine.id, 'Merge', { owner: 'ops' });
    expect(readWriteCount(kit.emulator.stats, machine.id)).toBe(writes + 2);

    const read = await kit.send('GET', `${machine.id}/${tagsApi}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: `${machine.id}/providers/Microsoft.Resources/tags/default`,
      properties: { tags: { ...before, owner: 'ops' } },
    });
    const list = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Compute/virtualMachines?api-version=2024-07-01`,
      { token },
    );
    const listed = (list.body as { value: { id: string; tags?: Record<string, string> }[] }).value.find(
      (item) => item.id.toLowerCase() === machine.id.toLowerCase(),
    );
    expect(listed?.tags).toMatchObject({ owner: 'ops' });

    const deleted = await patchTags(machine.id, 'Delete', { owner: '' });
    expect((deleted.body as TagsView).properties.tags).toEqual(before);
    const replaced = await patchTags(machine.id, 'Replace', { team: 'web' });
    expect((replaced.body as TagsView).properties.tags).toEqual({ team: 'web' });
    expect(readWriteCount(kit.emulator.stats, machine.id)).toBe(writes + 4);
  });

  it('refuses a body without an operation, and answers 404 for a resource that is not there', async () => {
    const machine = pickMachine();
    const writes = readWriteCount(kit.emulator.stats, machine.id);
    const refused = await kit.send('PATCH', `${machine.id}/${tagsApi}`, {
      token,
      body: JSON.stringify({ properties: { tags: { owner: 'ops' } } }),
      contentType: 'application/json',
    });
    expect(refused.status).toBe(400);
    const missingId = `/subscriptions/${subscriptionId}/resourceGroups/${machine.resourceGroupName}/providers/Microsoft.Compute/virtualMachines/no-such-vm`;
    const missing = await patchTags(missingId, 'Merge', { owner: 'ops' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'ResourceNotFound' } });
    expect(readWriteCount(kit.emulator.stats, machine.id)).toBe(writes);
  });
});
