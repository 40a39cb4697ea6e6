// The SDK clients and what they share: the https agent that trusts the configured extra CA, the
// retry policy, and one ClientSecretCredential per service principal (its token cached), each with
// its Resource Manager, Compute, Monitor and regional Metrics clients made on first use. A credential
// holds its principal's secret, so it is kept only while in use: dropped when its tenant is deleted
// or deactivated (forgetPrincipal), after an hour unused, and beyond the bound on principals.
import { ComputeManagementClient } from '@azure/arm-compute';
import { MonitorClient } from '@azure/arm-monitor';
import { ResourceManagementClient } from '@azure/arm-resources';
import {
  createDefaultHttpClient,
  createPipelineFromOptions,
  type HttpClient,
  type Pipeline,
  type PipelineRetryOptions,
} from '@azure/core-rest-pipeline';
import { ClientSecretCredential } from '@azure/identity';
import { MetricsClient } from '@azure/monitor-query-metrics';
import { createHash } from 'node:crypto';
import https from 'node:https';
import tls from 'node:tls';
import type { AzureConfig } from '../../config';
import type { CloudCredentials } from '../cloud-provider';
import { readSubscriptionId } from './azure-arm';
import { createCostPipeline } from './azure-costs';

// The SDK's retry policy waits out Retry-After on 429 and 503 (its throttling strategy) and backs
// off exponentially on other transient failures; the operation deadline bounds the whole.
const retryOptions: PipelineRetryOptions = { maxRetries: 8, retryDelayInMs: 500, maxRetryDelayInMs: 20_000 };
const defaultMaxCachedPrincipals = 500;
const defaultIdleMilliseconds = 60 * 60_000;
const longestSweepMilliseconds = 5 * 60_000;

export interface AzureClientsOptions {
  maxCachedPrincipals?: number;
  // A principal unused this long is dropped, its secret with it.
  idleMilliseconds?: number;
  // Milliseconds on a clock that only moves forward; the tests move it by hand.
  now?: () => number;
}

// The batch call is addressed through the client's pipeline, so the endpoint it was made for rides along.
export interface RegionalMetricsClient {
  client: MetricsClient;
  endpoint: string;
}

interface PrincipalClients {
  lastUsedAt: number;
  credential: ClientSecretCredential;
  resourceClients: Map<string, ResourceManagementClient>;
  computeClients: Map<string, ComputeManagementClient>;
  monitorClients: Map<string, MonitorClient>;
  metricsClients: Map<string, RegionalMetricsClient>;
  costPipeline?: Pipeline;
}

export class AzureClients {
  // The Retail Prices API is public: a bare pipeline (agent and retries, no token) reads it.
  readonly pricesPipeline: Pipeline;
  readonly httpClient: HttpClient = createDefaultHttpClient();
  private readonly agent: https.Agent;
  private readonly principals = new Map<string, PrincipalClients>();
  private readonly scope: string;
  private readonly maxCachedPrincipals: number;
  private readonly idleMilliseconds: number;
  private readonly now: () => number;

  constructor(
    private readonly config: AzureConfig,
    extraCaPem?: string,
    options: AzureClientsOptions = {},
  ) {
    this.maxCachedPrincipals = options.maxCachedPrincipals ?? defaultMaxCachedPrincipals;
    this.idleMilliseconds = options.idleMilliseconds ?? defaultIdleMilliseconds;
    this.now = options.now ?? (() => performance.now());
    // Idle principals go even when no call comes to find them. The timer keeps neither the process
    // nor these clients alive.
    const clients = new WeakRef(this);
    const sweep = setInterval(
      () => (clients.deref() ? clients.deref()!.forgetIdle() : clearInterval(sweep)),
      Math.min(this.idleMilliseconds, longestSweepMilliseconds),
    );
    sweep.unref();
    // Passing `ca` replaces Node's bundled roots, so they are kept alongside the extra CA. One
    // secure context for every socket: given `ca` alone, each new socket parses ~140 roots again,
    // synchronously, which stalls the event loop for milliseconds per connection.
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      secureContext: extraCaPem
        ? tls.createSecureContext({ ca: [...tls.rootCertificates, extraCaPem] })
        : undefined,
    });
    this.pricesPipeline = createPipelineFromOptions({ agent: this.agent, retryOptions });
    this.scope = `${config.resourceManagerUrl}/.default`;
  }

  getResourceClient(credentials: CloudCredentials, subscriptionId: string): ResourceManagementClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.resourceClients, subscriptionId, () => {
      return new ResourceManagementClient(principal.credential, subscriptionId, this.readArmOptions());
    });
  }

  getComputeClient(credentials: CloudCredentials, subscriptionId: string): ComputeManagementClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.computeClients, subscriptionId, () => {
      return new ComputeManagementClient(principal.credential, subscriptionId, this.readArmOptions());
    });
  }

  // The compute client of the subscription a resource (or operation) path names.
  getComputeClientFor(credentials: CloudCredentials, path: string): ComputeManagementClient {
    return this.getComputeClient(credentials, readSubscriptionId(path));
  }

  // The Resource Manager client of the subscription a resource path names: any type's ARM calls go
  // through its pipeline (Network, Web and Sql have no SDK client here).
  getResourceClientFor(credentials: CloudCredentials, path: string): ResourceManagementClient {
    return this.getResourceClient(credentials, readSubscriptionId(path));
  }

  getMonitorClient(credentials: CloudCredentials, subscriptionId: string): MonitorClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.monitorClients, subscriptionId, () => {
      return new MonitorClient(principal.credential, subscriptionId, this.readArmOptions());
    });
  }

  getMetricsClient(credentials: CloudCredentials, region: string): RegionalMetricsClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.metricsClients, region, () => {
      const endpoint = this.config.metricsUrlTemplate.replaceAll('{region}', encodeURIComponent(region));
      // Scopes rather than `audience`: the client appends no '/.default' to an audience it is given.
      const client = new MetricsClient(endpoint, principal.credential, {
        credentials: { scopes: [this.scope] },
        agent: this.agent,
        retryOptions,
      });
      return { client, endpoint };
    });
  }

  // Cost Management's query pipeline (azure-costs): Resource Manager's token, no wait on a 429.
  getCostPipeline(credentials: CloudCredentials): Pipeline {
    const principal = this.getPrincipal(credentials);
    principal.costPipeline ??= createCostPipeline(principal.credential, this.scope, this.agent, retryOptions);
    return principal.costPipeline;
  }

  // Drops every credential of the principal (whatever its secret) and the clients made with them.
  forgetPrincipal(principal: Pick<CloudCredentials, 'tenantId' | 'applicationId'>): void {
    const prefix = readPrincipalPrefix(principal);
    for (const key of [...this.principals.keys()]) {
      if (key.startsWith(prefix)) this.principals.delete(key);
    }
  }

  hasPrincipal(credentials: CloudCredentials): boolean {
    this.forgetIdle();
    return this.principals.has(readPrincipalKey(credentials));
  }

  // The map runs from least to most recently used, so the idle ones are at its front.
  forgetIdle(): void {
    const oldestKept = this.now() - this.idleMilliseconds;
    for (const [key, principal] of this.principals) {
      if (principal.lastUsedAt > oldestKept) return;
      this.principals.delete(key);
    }
  }

  private getPrincipal(credentials: CloudCredentials): PrincipalClients {
    this.forgetIdle();
    const key = readPrincipalKey(credentials);
    let principal = this.principals.get(key);
    if (principal) {
      // Least recently used first: a principal in use moves to the end, so the ones of deleted
      // tenants (in whichever thread or process cached them) age out.
      this.principals.delete(key);
    } else {
      if (this.principals.size >= this.maxCachedPrincipals) {
        this.principals.delete(this.principals.keys().next().value!);
      }
      principal = {
        lastUsedAt: 0,
        // One credential per principal keeps its token cached across calls and jobs.
        credential: new ClientSecretCredential(
          credentials.tenantId,
          credentials.applicationId,
          credentials.secret,
          {
            authorityHost: this.config.authorityHost,
            disableInstanceDiscovery: true,
            agent: this.agent,
            retryOptions,
          },
        ),
        resourceClients: new Map(),
        computeClients: new Map(),
        monitorClients: new Map(),
        metricsClients: new Map(),
      };
    }
    principal.lastUsedAt = this.now();
    this.principals.set(key, principal);
    return principal;
  }

  private readArmOptions() {
    return {
      endpoint: this.config.resourceManagerUrl,
      credentialScopes: [this.scope],
      agent: this.agent,
      retryOptions,
    };
  }
}

// The cache key of a principal: ids case-folded as Entra ID compares them, the secret hashed so the
// key held in memory is not itself the secret. A changed secret is a new principal.
export function readPrincipalKey(credentials: CloudCredentials): string {
  const secretHash = createHash('sha256').update(credentials.secret).digest('base64url');
  return `${readPrincipalPrefix(credentials)}${secretHash}`;
}

function readPrincipalPrefix(principal: Pick<CloudCredentials, 'tenantId' | 'applicationId'>): string {
  return `${principal.tenantId.toLowerCase()}|${principal.applicationId.toLowerCase()}|`;
}

function getOrCreate<Value>(map: Map<string, Value>, key: string, create: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
