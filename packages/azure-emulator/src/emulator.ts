import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { OperationStore } from './arm/operation.store';
import { CostLedger } from './costs/cost.ledger';
import { createRequestHandler } from './emulator.dispatcher';
import type { EmulatorServices } from './emulator.services';
import { createStats, resetStats, type EmulatorStats } from './emulator.stats';
import { FaultInjector, type FaultSettings } from './faults/fault.injector';
import { generateFleet } from './fleet/fleet.generator';
import type { Fleet } from './fleet/fleet.model';
import { loadOrCreateSigningKey, TokenService } from './identity/token.service';
import { SecurityEstate } from './security/security.estate';
import { azureThrottleLimits, ThrottlePolicy, type ThrottleLimits } from './throttle/throttle.policy';
import { loadOrCreateCertificateAuthority, loadOrCreateServerCertificate } from './tls/tls.certificates';

export type { FaultSettings } from './faults/fault.injector';
export type { EmulatorStats, CallKind } from './emulator.stats';
export type { ThrottleLimits } from './throttle/throttle.policy';
export type { Fleet } from './fleet/fleet.model';

export interface StartAzureEmulatorOptions {
  /** Where the certificate authority, server certificate and token signing key live. */
  readonly dataDir: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Same seed, same fleet: tenants, principals, secrets, resources and metrics. Default 42. */
  readonly seed?: number;
  /** Virtual machines across all subscriptions. Default 60. */
  readonly fleetSize?: number;
  /** Tenants: Contoso, Fabrikam, then numbered ones of one subscription each. Default 2. */
  readonly tenantCount?: number;
  /** Azure's 429 throttling. Default true. */
  readonly throttling?: boolean;
  /** Bucket sizes and refill rates; Azure's published values by default. */
  readonly throttleLimits?: Partial<ThrottleLimits>;
  /** Injected server errors and delays; change them later with `setFaults`. */
  readonly faults?: FaultSettings;
  /** Items per page of Resource Manager lists. Default 1000. */
  readonly pageSize?: number;
  /** The emulated clock for metrics and for the times of resizes and power changes. Default: the real clock. */
  readonly now?: () => Date;
  /**
   * Running VMs can be resized only within their size family (their hardware cluster); other
   * sizes need a deallocation first, answered as Azure does (409 OperationNotAllowed). Default false.
   */
  readonly isClusterBound?: boolean;
  /** How long resizes and power actions run before the poller sees Succeeded. Default 1000 ms. */
  readonly operationDurationMs?: number;
  /** Lifetime of issued access tokens. Default 3599 s, as Entra ID. */
  readonly tokenLifetimeSeconds?: number;
}

export interface EmulatorPrincipal {
  readonly applicationId: string;
  readonly objectId: string;
  readonly secret: string;
  readonly displayName: string;
  readonly readSubscriptionIds: readonly string[];
  readonly writeSubscriptionIds: readonly string[];
  /** False for a principal whose role reads everything but Cost Management and Consumption. */
  readonly canReadCosts: boolean;
}

export interface EmulatorTenant {
  readonly tenantId: string;
  readonly displayName: string;
  readonly defaultDomain: string;
  readonly subscriptions: readonly { readonly subscriptionId: string; readonly displayName: string }[];
  readonly principals: readonly EmulatorPrincipal[];
}

export interface AzureEmulator {
  /** Base URL of every service: authority host, Resource Manager, Monitor metrics and prices. */
  readonly url: string;
  readonly port: number;
  readonly caCertificatePem: string;
  readonly caCertificatePath: string;
  readonly tenants: readonly EmulatorTenant[];
  readonly fleet: Fleet;
  /** What security checks read (NSGs, storage, vaults, SQL settings, Defender); change it to fix a finding. */
  readonly security: SecurityEstate;
  /**
   * The fleet's bill as Cost Management reads it: 13 months back from the clock at start, each
   * tenant's billing profile, the sizes and power states the fleet recorded (README, Cost Management).
   */
  readonly costs: CostLedger;
  /** Live counters; read them at any time. */
  readonly stats: EmulatorStats;
  setFaults(faults?: FaultSettings): void;
  setThrottling(isEnabled: boolean): void;
  /** vCPUs of one size family per subscription and region; undefined lifts the quota. */
  setVcpuQuota(vcpusPerFamily: number | undefined): void;
  /** Sizes a start cannot allocate (AllocationFailed) until called again without them. */
  setUnallocatableSizes(sizes: readonly string[]): void;
  resetStats(): void;
  stop(): Promise<void>;
}

function describeTenants(fleet: Fleet): EmulatorTenant[] {
  return fleet.tenants.map((tenant) => ({
    tenantId: tenant.tenantId,
    displayName: tenant.displayName,
    defaultDomain: tenant.defaultDomain,
    subscriptions: tenant.subscriptions.map((subscription) => ({
      subscriptionId: subscription.subscriptionId,
      displayName: subscription.displayName,
    })),
    principals: tenant.principals.map((principal) => ({
      applicationId: principal.applicationId,
      objectId: principal.objectId,
      secret: principal.secret,
      displayName: principal.displayName,
      readSubscriptionIds: principal.readSubscriptionIds,
      writeSubscriptionIds: principal.writeSubscriptionIds,
      canReadCosts: principal.canReadCosts,
    })),
  }));
}

/** Starts Azure as the SDK sees it, over HTTPS on 127.0.0.1 with the emulator's own CA. */
export async function startAzureEmulator(options: StartAzureEmulatorOptions): Promise<AzureEmulator> {
  const readNow = options.now ?? (() => new Date());
  const [authority, signingKey] = await Promise.all([
    loadOrCreateCertificateAuthority(options.dataDir),
    loadOrCreateSigningKey(options.dataDir),
  ]);
  const serverCertificate = await loadOrCreateServerCertificate(authority);
  const fleet = generateFleet({
    seed: options.seed ?? 42,
    fleetSize: options.fleetSize ?? 60,
    tenantCount: options.tenantCount,
    nowMs: readNow().getTime(),
  });
  const faults = new FaultInjector(fleet.seedKey);
  faults.configure(options.faults);
  const stats = createStats();
  const throttle = new ThrottlePolicy(
    { ...azureThrottleLimits, ...options.throttleLimits },
    options.throttling ?? true,
  );
  const services: EmulatorServices = {
    fleet,
    tokens: new TokenService(signingKey, options.tokenLifetimeSeconds ?? 3599),
    throttle,
    operations: new OperationStore(Math.max(0, options.operationDurationMs ?? 1000)),
    stats,
    faults,
    costs: new CostLedger(fleet, readNow, readNow().getTime()),
    security: new SecurityEstate(fleet, readNow().getTime()),
    settings: {
      pageSize: Math.max(1, Math.trunc(options.pageSize ?? 1000)),
      readNow,
      isClusterBound: options.isClusterBound ?? false,
      vcpuQuotaPerFamily: undefined,
      unallocatableSizes: new Set(),
    },
  };
  const server = https.createServer(
    { key: serverCertificate.privateKeyPem, cert: serverCertificate.certificatePem, keepAlive: true },
    createRequestHandler(services),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let stopping: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caCertificatePem: authority.certificatePem,
    caCertificatePath: authority.certificatePath,
    tenants: describeTenants(fleet),
    fleet,
    security: services.security,
    costs: services.costs,
    stats,
    setFaults: (settings) => faults.configure(settings),
    setThrottling: (isEnabled) => {
      throttle.isEnabled = isEnabled;
    },
    setVcpuQuota: (vcpusPerFamily) => {
      services.settings.vcpuQuotaPerFamily = vcpusPerFamily;
    },
    setUnallocatableSizes: (sizes) => {
      services.settings.unallocatableSizes = new Set(sizes.map((size) => size.toLowerCase()));
    },
    resetStats: () => resetStats(stats),
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
