import { createHttpHeaders, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { readSyncedSecurityRecords } from '../security-inventory';
import type { ArmPipelineClient } from './azure-arm';
import {
  readResources,
  readVirtualMachine,
  readVmRequirements,
  toCloudResources,
  toCloudSubscriptions,
  toVirtualMachineState,
} from './azure-resources';

const vmId = '/subscriptions/sub-1/resourceGroups/RG-Web/providers/Microsoft.Compute/virtualMachines/vm-1';

describe('toCloudSubscriptions', () => {
  it('lower-cases the id and falls back to it for a missing name, to Enabled for a missing state', () => {
    expect(
      toCloudSubscriptions([
        { subscriptionId: 'SUB-1', displayName: 'Production', state: 'Disabled' },
        { subscriptionId: 'SUB-2' },
      ]),
    ).toEqual([
      { subscriptionId: 'sub-1', displayName: 'Production', state: 'Disabled' },
      { subscriptionId: 'sub-2', displayName: 'SUB-2', state: 'Enabled' },
    ]);
  });

  it('leaves out an item without an id', () => {
    expect(toCloudSubscriptions([{ displayName: 'Nameless' }, { subscriptionId: '' }])).toEqual([]);
  });
});

describe('toCloudResources', () => {
  it('joins a VM to its size, power state and requirements by id in any letter case, with its tags as text', () => {
    const [resource] = toCloudResources(
      [
        {
          id: vmId,
          name: 'vm-1',
          type: 'Microsoft.Compute/virtualMachines',
          location: 'EastUS',
          tags: { team: 'web', costcenter: 4711 },
        },
      ],
      [
        {
          id: vmId.toUpperCase(),
          properties: {
            hardwareProfile: { vmSize: 'Standard_D4s_v5' },
            instanceView: { statuses: [{ code: 'PowerState/running' }] },
            storageProfile: { osDisk: { osType: 'Linux' }, dataDisks: [] },
          },
        },
      ],
    );
    expect(resource).toEqual({
      id: vmId,
      name: 'vm-1',
      type: 'Microsoft.Compute/virtualMachines',
      resourceGroup: 'RG-Web',
      region: 'eastus',
      sku: 'Standard_D4s_v5',
      powerState: 'running',
      tags: { team: 'web', costcenter: '4711' },
      vmRequirements: {
        osType: 'Linux',
        dataDiskCount: 0,
        nicCount: null,
        hasPremiumDisk: null,
        hasAcceleratedNetworking: null,
      },
      // What the security scan after the sync judges, so it lists no VMs of its own.
      armRecord: {
        id: vmId.toUpperCase(),
        name: 'vm-1',
        type: 'Microsoft.Compute/virtualMachines',
        location: 'EastUS',
        tags: { team: 'web', costcenter: '4711' },
        properties: {
          securityProfile: undefined,
          storageProfile: { osDisk: { name: undefined, vhd: undefined, managedDisk: undefined } },
        },
      },
    });
  });

  it('gives other resources their own SKU and no power state or requirements', () => {
    const diskId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/disks/disk-1';
    expect(
      toCloudResources([{ id: diskId, type: 'Microsoft.Compute/disks', sku: { name: 'Premium_LRS' } }], []),
    ).toEqual([
      {
        id: diskId,
        name: 'disk-1',
        type: 'Microsoft.Compute/disks',
        resourceGroup: 'rg',
        region: '',
        sku: 'Premium_LRS',
        powerState: null,
        tags: {},
      },
    ]);
  });

  it('keeps a VM missing from the VM list, with what the generic list says', () => {
    expect(toCloudResources([{ id: vmId, type: 'microsoft.compute/virtualmachines' }], [])).toEqual([
      expect.objectContaining({
        name: 'vm-1',
        sku: null,
        powerState: null,
        vmRequirements: {
          osType: null,
          dataDiskCount: null,
          nicCount: null,
          hasPremiumDisk: null,
          hasAcceleratedNetworking: null,
        },
      }),
    ]);
  });

  it('leaves out an item without an id or a type', () => {
    expect(toCloudResources([{ type: 'Microsoft.Compute/disks' }, { id: vmId }], [{}])).toEqual([]);
  });
});

describe('toVirtualMachineState', () => {
  it('reads the size, power state and provisioning state of a VM read back', () => {
    const body = JSON.stringify({
      properties: {
        hardwareProfile: { vmSize: 'Standard_B2s' },
        provisioningState: 'Updating',
        instanceView: {
          statuses: [{ code: 'ProvisioningState/succeeded' }, { code: 'PowerState/deallocated' }],
        },
      },
    });
    expect(toVirtualMachineState(body)).toEqual({
      size: 'Standard_B2s',
      powerState: 'deallocated',
      provisioningState: 'Updating',
    });
  });

  it('says null for what the answer leaves out, and refuses an answer that is not JSON', () => {
    const unknown = { size: null, powerState: null, provisioningState: null };
    expect(toVirtualMachineState('{}')).toEqual(unknown);
    expect(toVirtualMachineState(undefined)).toEqual(unknown);
    expect(() => toVirtualMachineState('<html>')).toThrow(SyntaxError);
  });
});

describe('reads through a client', () => {
  function createClient(answers: Record<string, { status?: number; body: unknown }>) {
    const urls: string[] = [];
    const client: ArmPipelineClient = {
      sendRequest: async (request: PipelineRequest): Promise<PipelineResponse> => {
        urls.push(request.url);
        const path = new URL(request.url).pathname;
        const answer = answers[path] ?? { status: 404, body: { error: { code: 'NotFound', message: path } } };
        return {
          request,
          status: answer.status ?? 200,
          headers: createHttpHeaders(),
          bodyAsText: JSON.stringify(answer.body),
        };
      },
    };
    return { client, urls };
  }

  it('readResources reads both lists of the subscription and joins them', async () => {
    const { client, urls } = createClient({
      '/subscriptions/sub-1/resources': {
        body: { value: [{ id: vmId, type: 'Microsoft.Compute/virtualMachines', location: 'eastus' }] },
      },
      '/subscriptions/sub-1/providers/Microsoft.Compute/virtualMachines': {
        body: { value: [{ id: vmId, properties: { hardwareProfile: { vmSize: 'Standard_B1s' } } }] },
      },
    });
    const resources = await readResources(
      client,
      'https://arm.example',
      'sub-1',
      new AbortController().signal,
    );
    expect(resources).toEqual([expect.objectContaining({ id: vmId, sku: 'Standard_B1s', region: 'eastus' })]);
    expect(urls.some((url) => url.includes('statusOnly=true'))).toBe(true);
  });

  it('readResources keeps each VM and disk as the security lists would give them, for the scan after the sync', async () => {
    const diskId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/disks/vm-1-os';
    const { client } = createClient({
      '/subscriptions/sub-1/resources': {
        body: {
          value: [
            { id: vmId, name: 'vm-1', type: 'Microsoft.Compute/virtualMachines', location: 'eastus' },
            {
              id: diskId,
              name: 'vm-1-os',
              type: 'Microsoft.Compute/disks',
              location: 'eastus',
              tags: { env: 'dev' },
            },
          ],
        },
      },
      '/subscriptions/sub-1/providers/Microsoft.Compute/virtualMachines': {
        body: {
          value: [
            {
              id: vmId,
              properties: {
                securityProfile: { securityType: 'TrustedLaunch', uefiSettings: { secureBootEnabled: true } },
                storageProfile: {
                  osDisk: {
                    name: 'vm-1-os',
                    vhd: { uri: 'https://legacy.blob.core.windows.net/vhds/vm-1-os.vhd' },
                  },
                },
              },
            },
          ],
        },
      },
      '/subscriptions/sub-1/providers/Microsoft.Compute/disks': {
        body: {
          value: [
            {
              id: diskId,
              name: 'vm-1-os',
              location: 'eastus',
              tags: { env: 'dev' },
              managedBy: vmId,
              properties: { diskState: 'Attached', encryption: { type: 'EncryptionAtRestWithPlatformKey' } },
            },
          ],
        },
      },
    });
    const resources = await readResources(
      client,
      'https://arm.example',
      'sub-1',
      new AbortController().signal,
    );
    const records = readSyncedSecurityRecords(resources);
    expect(records.virtualMachines).toEqual([
      expect.objectContaining({
        id: vmId,
        name: 'vm-1',
        properties: {
          securityProfile: { securityType: 'TrustedLaunch', uefiSettings: { secureBootEnabled: true } },
          storageProfile: {
            osDisk: {
              name: 'vm-1-os',
              vhd: { uri: 'https://legacy.blob.core.windows.net/vhds/vm-1-os.vhd' },
              managedDisk: undefined,
            },
          },
        },
      }),
    ]);
    expect(records.disks).toEqual([
      {
        id: diskId,
        name: 'vm-1-os',
        type: 'Microsoft.Compute/disks',
        location: 'eastus',
        tags: { env: 'dev' },
        managedBy: vmId,
        properties: { diskState: 'Attached', encryption: { type: 'EncryptionAtRestWithPlatformKey' } },
      },
    ]);
  });

  it('readVirtualMachine asks for the instance view and refuses a 404 with its text', async () => {
    const { client, urls } = createClient({
      [vmId]: { body: { properties: { hardwareProfile: { vmSize: 'Standard_B1s' } } } },
    });
    expect(
      await readVirtualMachine(client, 'https://arm.example', vmId, new AbortController().signal),
    ).toEqual({
      size: 'Standard_B1s',
      powerState: null,
      provisioningState: null,
    });
    expect(urls[0]).toContain('$expand=instanceView');
    await expect(
      readVirtualMachine(client, 'https://arm.example', `${vmId}-gone`, new AbortController().signal),
    ).rejects.toMatchObject({ statusCode: 404, code: 'NotFound' });
  });
});

describe('readVmRequirements', () => {
  it('reads OS, disks, NICs and accelerated networking from the VM model', () => {
    expect(
      readVmRequirements({
        storageProfile: {
          osDisk: { osType: 'Windows', managedDisk: { storageAccountType: 'StandardSSD_LRS' } },
          dataDisks: [
            { managedDisk: { storageAccountType: 'StandardSSD_LRS' } },
            { managedDisk: { storageAccountType: 'PremiumV2_LRS' } },
          ],
        },
        networkProfile: {
          networkInterfaces: [{}, {}],
          networkInterfaceConfigurations: [
            { properties: { enableAcceleratedNetworking: false } },
            { properties: { enableAcceleratedNetworking: true } },
          ],
        },
      }),
    ).toEqual({
      osType: 'Windows',
      dataDiskCount: 2,
      nicCount: 2,
      hasPremiumDisk: true,
      hasAcceleratedNetworking: true,
    });
  });

  it('says null where the model does not say (NICs by id only, no model at all)', () => {
    expect(
      readVmRequirements({
        storageProfile: { osDisk: { osType: 'Linux' }, dataDisks: [] },
        networkProfile: { networkInterfaces: [{}] },
      }),
    ).toEqual({
      osType: 'Linux',
      dataDiskCount: 0,
      nicCount: 1,
      hasPremiumDisk: null,
      hasAcceleratedNetworking: null,
    });
    expect(readVmRequirements(undefined)).toEqual({
      osType: null,
      dataDiskCount: null,
      nicCount: null,
      hasPremiumDisk: null,
      hasAcceleratedNetworking: null,
    });
  });
});
