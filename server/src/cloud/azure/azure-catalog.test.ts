import type { PipelineRequest, PipelineResponse } from '@azure/core-rest-pipeline';
import { createHttpHeaders } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { readVmRequirements, readVmSkus } from './azure-catalog';

function answer(request: PipelineRequest, body: unknown): PipelineResponse {
  return { request, status: 200, headers: createHttpHeaders(), bodyAsText: JSON.stringify(body) };
}

const capabilities = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => ({ name, value }));

describe('readVmSkus', () => {
  it('reads capabilities, follows nextLink and marks a Location restriction as unavailable', async () => {
    const urls: string[] = [];
    const client = {
      sendRequest: async (request: PipelineRequest) => {
        urls.push(request.url);
        if (urls.length === 1) {
          return answer(request, {
            value: [
              {
                resourceType: 'virtualMachines',
                name: 'Standard_D2s_v5',
                family: 'standardDSv5Family',
                locations: ['EastUS'],
                capabilities: capabilities({
                  vCPUs: '2',
                  MemoryGB: '8',
                  MaxDataDiskCount: '4',
                  UncachedDiskIOPS: '3750',
                  MaxNetworkInterfaces: '2',
                  PremiumIO: 'True',
                  AcceleratedNetworkingEnabled: 'True',
                }),
                restrictions: [
                  { type: 'Zone', values: ['eastus'], reasonCode: 'NotAvailableForSubscription' },
                ],
              },
              { resourceType: 'disks', name: 'Premium_LRS', locations: ['eastus'] },
            ],
            nextLink: 'https://arm.example/next',
          });
        }
        return answer(request, {
          value: [
            {
              resourceType: 'virtualMachines',
              name: 'Standard_B1s',
              locations: ['eastus'],
              capabilities: capabilities({ vCPUs: '1', MemoryGB: '1', PremiumIO: 'False' }),
              restrictions: [
                { type: 'Location', values: ['eastus'], reasonCode: 'NotAvailableForSubscription' },
              ],
            },
          ],
        });
      },
    };
    const skus = await readVmSkus(
      client,
      'https://arm.example',
      'sub-1',
      'eastus',
      new AbortController().signal,
    );
    expect(urls[0]).toContain('%24filter=location+eq+%27eastus%27');
    expect(urls[1]).toBe('https://arm.example/next');
    expect(skus).toEqual([
      {
        name: 'Standard_D2s_v5',
        family: 'standardDSv5Family',
        vcpus: 2,
        memoryGiB: 8,
        maxDataDisks: 4,
        uncachedDiskIops: 3750,
        maxNics: 2,
        hasPremiumIo: true,
        hasAcceleratedNetworking: true,
        isAvailable: true,
      },
      {
        name: 'Standard_B1s',
        family: null,
        vcpus: 1,
        memoryGiB: 1,
        maxDataDisks: null,
        uncachedDiskIops: null,
        maxNics: null,
        hasPremiumIo: false,
        hasAcceleratedNetworking: false,
        isAvailable: false,
      },
    ]);
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
