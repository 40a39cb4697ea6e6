import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper';
import { createJobDefinitions } from '../../jobs/definitions';
import { loadConfig } from '../../config';
import { describeDemoCloud, startDemoCloud, type DemoCloud } from './demo-cloud';

let dataDir: string;
let demo: DemoCloud;
let context: TestContext;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-demo-'));
  demo = await startDemoCloud(loadConfig({ DATA_DIR: dataDir, DEMO: '1' }));
  // The app as main.ts builds it with DEMO on: every Azure setting taken from the demo cloud.
  const { azure } = demo.config;
  context = await createTestContext({
    environment: {
      AZURE_AUTHORITY_HOST: azure.authorityHost,
      AZURE_RESOURCE_MANAGER_URL: azure.resourceManagerUrl,
      AZURE_METRICS_URL: azure.metricsUrlTemplate,
      AZURE_PRICES_URL: azure.pricesUrl,
      AZURE_CA_FILE: azure.caFile!,
    },
  });
  await context.container.queue.start(createJobDefinitions(context.container));
});
afterAll(async () => {
  await context.close();
  await demo.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the demo cloud', () => {
  it('runs the emulator from DATA_DIR/azure-emulator and points every Azure setting at it', () => {
    expect(demo.emulator.caCertificatePath.startsWith(path.join(dataDir, 'azure-emulator'))).toBe(true);
    expect(demo.config.azure).toMatchObject({
      authorityHost: demo.emulator.url,
      resourceManagerUrl: demo.emulator.url,
      metricsUrlTemplate: demo.emulator.url,
      pricesUrl: demo.emulator.url,
      caFile: demo.emulator.caCertificatePath,
    });
    expect(demo.emulator.fleet.virtualMachines).toHaveLength(60);
  });

  it("connects the demo account to the first tenant's first principal once, however often it starts", async () => {
    const { teamId } = await context.container.demo.seedDemoAccount();
    expect(await context.container.tenants.connectDemoTenant(teamId, demo.demoTenant)).toBe(true);
    expect(await context.container.tenants.connectDemoTenant(teamId, demo.demoTenant)).toBe(false);
    const tenants = await context.container.tenants.listTenants(teamId);
    expect(tenants).toHaveLength(1);
    expect(tenants[0]).toMatchObject({
      FriendlyName: demo.emulator.tenants[0]!.displayName,
      TenantId: demo.emulator.tenants[0]!.tenantId,
      ApplicationId: demo.emulator.tenants[0]!.principals[0]!.applicationId,
    });
  });

  it("prints every tenant's id and every principal's application id and secret for the banner", () => {
    const banner = describeDemoCloud(demo).join('\n');
    expect(banner).toContain(demo.emulator.url);
    for (const tenant of demo.emulator.tenants) {
      expect(banner).toContain(tenant.tenantId);
      for (const principal of tenant.principals) {
        expect(banner).toContain(principal.applicationId);
        expect(banner).toContain(principal.secret);
      }
    }
  });
});
