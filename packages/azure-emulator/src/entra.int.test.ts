import {
  AuthenticationRequiredError,
  ClientSecretCredential,
  CredentialUnavailableError,
} from '@azure/identity';
import { ComputeManagementClient } from '@azure/arm-compute';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

describe('Entra ID through @azure/identity', () => {
  let kit: TestEmulator;

  beforeAll(async () => {
    kit = await startTestEmulator();
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('issues a token for a valid service principal', async () => {
    const token = await kit.createCredential(0, 0).getToken(`${kit.emulator.url}/.default`);
    expect(token.token.split('.')).toHaveLength(3);
    expect(token.expiresOnTimestamp).toBeGreaterThan(Date.now() + 50 * 60 * 1000);
    expect(kit.emulator.stats.calls.token).toBeGreaterThan(0);
  });

  it('answers a wrong secret with invalid_client and AADSTS7000215', async () => {
    const tenant = kit.emulator.tenants[0];
    const principal = tenant?.principals[0];
    if (!tenant || !principal) throw new Error('The fleet has a first principal');
    const credential = new ClientSecretCredential(
      tenant.tenantId,
      principal.applicationId,
      'not-the-secret',
      {
        authorityHost: kit.emulator.url,
        disableInstanceDiscovery: true,
        agent: kit.agent,
      },
    );
    // As against real Entra ID, @azure/identity wraps MSAL's server error: the code is in the message.
    const failure = await credential
      .getToken(`${kit.emulator.url}/.default`)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthenticationRequiredError);
    expect((failure as Error).message).toContain('invalid_client');
    expect((failure as Error).message).toContain('AADSTS7000215');

    const raw = await kit.send('POST', `/${tenant.tenantId}/oauth2/v2.0/token`, {
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: principal.applicationId,
        client_secret: 'not-the-secret',
        scope: 'https://management.azure.com/.default',
      }).toString(),
    });
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
    expect((raw.body as { error_description: string }).error_description).toMatch(/^AADSTS7000215: /);
  });

  it('answers an unknown application with AADSTS700016', async () => {
    const tenant = kit.emulator.tenants[0];
    if (!tenant) throw new Error('The fleet has a tenant');
    const raw = await kit.send('POST', `/${tenant.tenantId}/oauth2/v2.0/token`, {
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: '00000000-0000-4000-8000-000000000000',
        client_secret: 'whatever',
        scope: 'https://management.azure.com/.default',
      }).toString(),
    });
    expect(raw.status).toBe(400);
    expect(raw.body).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });
  });

  it('refuses an unknown tenant with AADSTS90002', async () => {
    const unknownTenant = '11111111-2222-4333-8444-555555555555';
    const credential = new ClientSecretCredential(
      unknownTenant,
      '34eebc47-54e1-4ea5-a53c-13bbbaf874bd',
      'secret',
      {
        authorityHost: kit.emulator.url,
        disableInstanceDiscovery: true,
        agent: kit.agent,
      },
    );
    await expect(credential.getToken(`${kit.emulator.url}/.default`)).rejects.toBeInstanceOf(
      CredentialUnavailableError,
    );

    const configuration = await kit.send('GET', `/${unknownTenant}/v2.0/.well-known/openid-configuration`);
    expect(configuration.status).toBe(400);
    expect(configuration.body).toMatchObject({ error: 'invalid_tenant', error_codes: [90002] });
    const token = await kit.send('POST', `/${unknownTenant}/oauth2/v2.0/token`, {
      contentType: 'application/x-www-form-urlencoded',
      body: 'grant_type=client_credentials&client_id=x&client_secret=y&scope=z%2F.default',
    });
    expect(token.status).toBe(400);
    expect((token.body as { error_description: string }).error_description).toContain('AADSTS90002');
  });

  it('serves the OpenID configuration MSAL reads', async () => {
    const tenant = kit.emulator.tenants[1];
    if (!tenant) throw new Error('The fleet has a second tenant');
    const answer = await kit.send('GET', `/${tenant.tenantId}/v2.0/.well-known/openid-configuration`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      token_endpoint: `${kit.emulator.url}/${tenant.tenantId}/oauth2/v2.0/token`,
      issuer: `${kit.emulator.url}/${tenant.tenantId}/v2.0`,
    });
  });

  it('rejects Resource Manager calls without a valid token in ARM error shape', async () => {
    const subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    const missing = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/resourcegroups?api-version=2025-03-01`,
    );
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: { code: 'AuthenticationFailed' } });
    const forged = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/resourcegroups?api-version=2025-03-01`,
      {
        token: 'eyJhbGciOiJIUzI1NiJ9.eyJ0aWQiOiJ4In0.forged',
      },
    );
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });

    const client = new ComputeManagementClient(
      { getToken: async () => ({ token: 'not-a-token', expiresOnTimestamp: Date.now() + 3600_000 }) },
      subscriptionId,
      kit.armOptions,
    );
    await expect(client.virtualMachines.listAll().next()).rejects.toMatchObject({
      statusCode: 401,
      code: 'InvalidAuthenticationToken',
    });
  });

  it('keeps tokens valid across a restart on the same data directory', async () => {
    const token = await kit.readToken(1, 0);
    const restarted = await startTestEmulator();
    try {
      const subscriptionId = restarted.emulator.tenants[1]?.subscriptions[0]?.subscriptionId ?? '';
      const answer = await restarted.send('GET', `/subscriptions/${subscriptionId}?api-version=2022-12-01`, {
        token,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ subscriptionId, displayName: 'Fabrikam Production' });
    } finally {
      await restarted.stop();
    }
  });
});
