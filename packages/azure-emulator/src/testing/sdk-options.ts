import https from 'node:https';
import tls from 'node:tls';
import { ClientSecretCredential } from '@azure/identity';

// How a Node client reaches the emulator without NODE_EXTRA_CA_CERTS: one https.Agent that trusts
// the public roots plus the emulator's CA, handed to the credential and to every client through
// the pipeline's `agent` option. The README explains each option.

export interface EmulatorConnection {
  readonly url: string;
  readonly caCertificatePem: string;
}

export function createEmulatorAgent(caCertificatePem: string): https.Agent {
  return new https.Agent({ keepAlive: true, ca: [...tls.rootCertificates, caCertificatePem] });
}

export function createEmulatorCredential(
  connection: EmulatorConnection,
  agent: https.Agent,
  tenantId: string,
  applicationId: string,
  secret: string,
): ClientSecretCredential {
  return new ClientSecretCredential(tenantId, applicationId, secret, {
    authorityHost: connection.url,
    disableInstanceDiscovery: true,
    agent,
  });
}

/** Options for ComputeManagementClient, ResourceManagementClient and MonitorClient. */
export function createArmClientOptions(connection: EmulatorConnection, agent: https.Agent) {
  return {
    endpoint: connection.url,
    credentialScopes: [`${connection.url}/.default`],
    agent,
    retryOptions: { maxRetries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 2000 },
  };
}

/** Options for MetricsClient, whose endpoint (the regional metrics host) is its first argument. */
export function createMetricsClientOptions(agent: https.Agent) {
  return {
    agent,
    retryOptions: { maxRetries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 2000 },
  };
}
