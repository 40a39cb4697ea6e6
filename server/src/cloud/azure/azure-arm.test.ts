import { createHttpHeaders, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { isCloudError } from '../cloud-provider';
import {
  readArmPage,
  readArmPages,
  readPowerState,
  readResourceGroup,
  readSubscriptionId,
  type ArmPipelineClient,
} from './azure-arm';

// A client answering each request with the next of the given pages.
function createClient(pages: { status?: number; body: string | undefined }[]) {
  const urls: string[] = [];
  const client: ArmPipelineClient = {
    sendRequest: async (request: PipelineRequest): Promise<PipelineResponse> => {
      urls.push(request.url);
      const page = pages[urls.length - 1]!;
      return { request, status: page.status ?? 200, headers: createHttpHeaders(), bodyAsText: page.body };
    },
  };
  return { client, urls };
}

describe('readArmPage', () => {
  it('reads the items and the next link', () => {
    expect(readArmPage(JSON.stringify({ value: [{ id: 'a' }], nextLink: 'https://arm/next' }))).toEqual({
      items: [{ id: 'a' }],
      nextLink: 'https://arm/next',
    });
  });

  it('reads a last page, an empty body and a page without value as no more pages', () => {
    expect(readArmPage(JSON.stringify({ value: [{ id: 'a' }], nextLink: null }))).toEqual({
      items: [{ id: 'a' }],
      nextLink: undefined,
    });
    expect(readArmPage(JSON.stringify({ value: [], nextLink: '' }))).toEqual({
      items: [],
      nextLink: undefined,
    });
    expect(readArmPage(undefined)).toEqual({ items: [], nextLink: undefined });
    expect(readArmPage('{}')).toEqual({ items: [], nextLink: undefined });
  });

  it('refuses a page that is not JSON or not a list page, rather than reading it as empty', () => {
    expect(() => readArmPage('')).toThrow(SyntaxError);
    expect(() => readArmPage('<html>Service Unavailable</html>')).toThrow(SyntaxError);
    expect(() => readArmPage('null')).toThrow('not a JSON object');
    expect(() => readArmPage('[{"id":"a"}]')).toThrow('not a JSON object');
    expect(() => readArmPage('{"value":{"id":"a"}}')).toThrow('value is not a list');
  });

  it('ignores a next link that is not text', () => {
    expect(readArmPage('{"value":[],"nextLink":42}')).toEqual({ items: [], nextLink: undefined });
  });
});

describe('readArmPages', () => {
  it('follows nextLink and hands over each page in turn', async () => {
    const { client, urls } = createClient([
      { body: JSON.stringify({ value: [1, 2], nextLink: 'https://arm/page2' }) },
      { body: JSON.stringify({ value: [3] }) },
    ]);
    const pages: number[][] = [];
    await readArmPages<number>(client, 'https://arm/page1', new AbortController().signal, (page) =>
      pages.push(page),
    );
    expect(pages).toEqual([[1, 2], [3]]);
    expect(urls).toEqual(['https://arm/page1', 'https://arm/page2']);
  });

  it("stops at a refused page with Azure's code and text, keeping what came before", async () => {
    const { client } = createClient([
      { body: JSON.stringify({ value: [1], nextLink: 'https://arm/page2' }) },
      { status: 403, body: JSON.stringify({ error: { code: 'AuthorizationFailed', message: 'No access' } }) },
    ]);
    const pages: number[][] = [];
    await expect(
      readArmPages<number>(client, 'https://arm/page1', new AbortController().signal, (page) =>
        pages.push(page),
      ),
    ).rejects.toMatchObject({ statusCode: 403, code: 'AuthorizationFailed', message: 'No access' });
    expect(pages).toEqual([[1]]);
  });
});

describe('resource ids', () => {
  const id = '/subscriptions/SUB-1/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/vm-1';

  it('reads the subscription and resource group in any letter case', () => {
    expect(readSubscriptionId(id)).toBe('SUB-1');
    expect(readSubscriptionId(id.toLowerCase())).toBe('sub-1');
    expect(readResourceGroup(id)).toBe('rg-web');
    expect(readResourceGroup(id.toUpperCase())).toBe('RG-WEB');
  });

  it('reads an operation path of Resource Manager as well', () => {
    expect(
      readSubscriptionId('/subscriptions/sub-2/providers/Microsoft.Compute/locations/eastus/operations/op-1'),
    ).toBe('sub-2');
  });

  it('refuses a text naming no subscription, and reads no resource group as empty', () => {
    for (const text of ['', 'vm-1', '/subscriptions/', '/resourceGroups/rg/providers/x']) {
      expect(() => readSubscriptionId(text)).toThrow(expect.toSatisfy(isCloudError));
    }
    expect(() => readSubscriptionId('not an id')).toThrow('Not a resource id: not an id');
    expect(readResourceGroup('/subscriptions/sub-1')).toBe('');
  });
});

describe('readPowerState', () => {
  it('reads the PowerState status in lower case, whatever comes beside it', () => {
    expect(
      readPowerState([{ code: 'ProvisioningState/succeeded' }, { code: 'PowerState/Deallocated' }]),
    ).toBe('deallocated');
    expect(readPowerState([{ code: 'powerstate/running' }])).toBe('running');
  });

  it('says null when no status gives the power state', () => {
    expect(readPowerState(undefined)).toBeNull();
    expect(readPowerState([])).toBeNull();
    expect(readPowerState([{}, { code: 'ProvisioningState/updating' }])).toBeNull();
  });
});
