// With DEMO on, Azure is the emulator, started in this process on loopback with its own CA. The
// server's Azure settings point at it, and its first tenant's first principal becomes the demo
// account's connected tenant.
import path from 'node:path';
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import type { Config } from '../../config';

export const demoFleetSize = 60;
export const demoSeed = 42;

export interface DemoTenantConnection {
  friendlyName: string;
  tenantId: string;
  applicationId: string;
  secret: string;
}

export interface DemoCloud {
  emulator: AzureEmulator;
  // The configuration with every Azure endpoint and the trusted CA set to the emulator's.
  config: Config;
  demoTenant: DemoTenantConnection;
  stop(): Promise<void>;
}

export async function startDemoCloud(config: Config): Promise<DemoCloud> {
  // Loaded only for the demo, so a production start never loads the emulator.
  const { startAzureEmulator } = await import('@cloudtrim/azure-emulator/emulator');
  const emulator = await startAzureEmulator({
    dataDir: path.join(config.dataDir, 'azure-emulator'),
    fleetSize: demoFleetSize,
    seed: demoSeed,
  });
  const firstTenant = emulator.tenants[0];
  const firstPrincipal = firstTenant?.principals[0];
  if (!firstTenant || !firstPrincipal) {
    await emulator.stop();
    throw new Error('The Azure emulator started without a tenant to connect the demo account to.');
  }
  return {
    emulator,
    config: {
      ...config,
      azure: {
        ...config.azure,
        authorityHost: emulator.url,
        resourceManagerUrl: emulator.url,
        metricsUrlTemplate: emulator.url,
        pricesUrl: emulator.url,
        caFile: emulator.caCertificatePath,
      },
    },
    demoTenant: {
      friendlyName: firstTenant.displayName,
      tenantId: firstTenant.tenantId,
      applicationId: firstPrincipal.applicationId,
      secret: firstPrincipal.secret,
    },
    stop: () => emulator.stop(),
  };
}

// The start-up banner's lines: where the emulator listens and every tenant's credentials, so a
// newcomer can connect the other tenants by hand on /tenants.
export function describeDemoCloud(demo: DemoCloud): string[] {
  const lines = [`  Azure emulator: ${demo.emulator.url} (CA ${demo.emulator.caCertificatePath})`];
  lines.push('  Emulated tenants (Tenant ID / Application ID / Secret for "Add Tenant"):');
  for (const tenant of demo.emulator.tenants) {
    lines.push(`    ${tenant.displayName}: tenant ${tenant.tenantId}`);
    for (const principal of tenant.principals) {
      const isDemoTenant = principal.applicationId === demo.demoTenant.applicationId;
      const rights =
        principal.readSubscriptionIds.length === 0
          ? 'no subscription rights'
          : `reads ${principal.readSubscriptionIds.length}, writes ${principal.writeSubscriptionIds.length} subscription(s)`;
      lines.push(
        `      ${principal.displayName}: application ${principal.applicationId} secret ${principal.secret} (${rights})${isDemoTenant ? ' [connected to the demo account]' : ''}`,
      );
    }
  }
  return lines;
}
