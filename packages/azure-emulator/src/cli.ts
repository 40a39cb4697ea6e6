#!/usr/bin/env -S node --import tsx
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startAzureEmulator, type AzureEmulator } from './emulator';

const usage = `Usage: npm run emulator -- -- [options]   (from the repository root)
       npm start -w @cloudtrim/azure-emulator -- [options]

  --port <number>        port on 127.0.0.1 (default 0: any free port)
  --seed <number>        fleet seed; the same seed gives the same fleet and credentials (default 42)
  --fleet-size <number>  virtual machines across all subscriptions (default 60)
  --page-size <number>   items per Resource Manager list page (default 1000)
  --data-dir <path>      CA, server certificate, signing key (default ./data/azure-emulator)
  --no-throttling        never answer 429
  --help                 show this text`;

function readInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} takes a whole number, not '${value}'.`);
  return parsed;
}

function describeEmulator(emulator: AzureEmulator, connectionFile: string): string {
  const lines = [
    `Azure emulator listening on ${emulator.url}`,
    `  Entra ID authority host : ${emulator.url}  (client credentials: ${emulator.url}/{tenantId}/oauth2/v2.0/token)`,
    `  Resource Manager        : ${emulator.url}`,
    `  Monitor metrics getBatch: ${emulator.url}/subscriptions/{subscriptionId}/metrics:getBatch`,
    `  Retail prices           : ${emulator.url}/api/retail/prices`,
    `  CA certificate          : ${emulator.caCertificatePath}`,
    `  Connection details      : ${connectionFile}`,
    `  Fleet                   : ${emulator.fleet.virtualMachines.length} virtual machines, seed ${emulator.fleet.seed}`,
    '',
  ];
  for (const tenant of emulator.tenants) {
    lines.push(`Tenant ${tenant.displayName}  tenantId=${tenant.tenantId}`);
    for (const subscription of tenant.subscriptions) {
      lines.push(`  subscription ${subscription.displayName}  subscriptionId=${subscription.subscriptionId}`);
    }
    for (const principal of tenant.principals) {
      const rights =
        principal.writeSubscriptionIds.length > 0
          ? 'read+write'
          : principal.readSubscriptionIds.length > 0
            ? 'read only'
            : 'no access';
      const costs =
        principal.readSubscriptionIds.length > 0 && !principal.canReadCosts ? ', no cost read' : '';
      lines.push(
        `  principal ${principal.displayName} (${rights}${costs})  tenantId=${tenant.tenantId}  applicationId=${principal.applicationId}  secret=${principal.secret}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      'fleet-size': { type: 'string' },
      'page-size': { type: 'string' },
      'data-dir': { type: 'string' },
      'no-throttling': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  // npm runs workspace scripts inside the package; relative paths mean the caller's directory.
  const baseDirectory = process.env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(baseDirectory, values['data-dir'] ?? './data/azure-emulator');
  const emulator = await startAzureEmulator({
    dataDir,
    port: readInteger(values.port, 'port', 0),
    seed: readInteger(values.seed, 'seed', 42),
    fleetSize: readInteger(values['fleet-size'], 'fleet-size', 60),
    pageSize: readInteger(values['page-size'], 'page-size', 1000) || 1000,
    throttling: !values['no-throttling'],
  });
  const connectionFile = path.join(dataDir, 'connection.json');
  await writeFile(
    connectionFile,
    `${JSON.stringify({ url: emulator.url, caCertificatePath: emulator.caCertificatePath, tenants: emulator.tenants }, null, 2)}\n`,
  );
  console.log(describeEmulator(emulator, connectionFile));
  const shutDown = (signal: string) => {
    console.log(`Received ${signal}; stopping the Azure emulator.`);
    void emulator.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', () => shutDown('SIGINT'));
  process.once('SIGTERM', () => shutDown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
