import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveSecrets } from './config';

describe('loadConfig', () => {
  it('has working defaults: port 8080 on loopback, embedded database, demo on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      isDemo: true,
      role: 'all',
      logLevel: 'info',
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('turns demo off by default when an external database is given, and honours DEMO', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x' }).isDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x', DEMO: 'true' }).isDemo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).isDemo).toBe(false);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '  ', PUBLIC_URL: '' })).toMatchObject({
      databaseUrl: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
    });
  });

  it('strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cloudtrim.example.com/' }).publicUrl).toBe(
      'https://cloudtrim.example.com',
    );
  });

  it('believes no X-Forwarded-For by default; TRUST_PROXY names a hop count or the proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('points Azure at public Azure by default and takes every endpoint and the CA from the environment', () => {
    expect(loadConfig({}).azure).toEqual({
      authorityHost: 'https://login.microsoftonline.com',
      resourceManagerUrl: 'https://management.azure.com',
      metricsUrlTemplate: 'https://{region}.metrics.monitor.azure.com',
      pricesUrl: 'https://prices.azure.com',
      caFile: undefined,
      timeoutMs: 60_000,
    });
    const emulator = 'https://127.0.0.1:8443';
    expect(
      loadConfig({
        AZURE_AUTHORITY_HOST: `${emulator}/`,
        AZURE_RESOURCE_MANAGER_URL: emulator,
        AZURE_METRICS_URL: emulator,
        AZURE_PRICES_URL: emulator,
        AZURE_CA_FILE: '/etc/cloudtrim/ca.pem',
        AZURE_TIMEOUT_SECONDS: '5',
      }).azure,
    ).toEqual({
      authorityHost: emulator,
      resourceManagerUrl: emulator,
      metricsUrlTemplate: emulator,
      pricesUrl: emulator,
      caFile: '/etc/cloudtrim/ca.pem',
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ AZURE_RESOURCE_MANAGER_URL: 'management' }, 'AZURE_RESOURCE_MANAGER_URL'],
    [{ AZURE_METRICS_URL: 'ftp://metrics' }, 'AZURE_METRICS_URL'],
    [{ AZURE_TIMEOUT_SECONDS: '0' }, 'AZURE_TIMEOUT_SECONDS'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ ENCRYPTION_KEY: 'abc' }, 'ENCRYPTION_KEY'],
    [{ ROLE: 'everything' }, 'ROLE'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DEMO: 'maybe' }, 'DEMO'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
  ])('refuses %o naming the variable', (environment, variable) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(variable);
  });
});

describe('resolveSecrets', () => {
  it('generates the secrets once, keeps them with mode 0600, and reuses them', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-config-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await resolveSecrets(config);
    const second = await resolveSecrets(config);
    expect(first.jwtSecret).toHaveLength(96);
    expect(first.encryptionKey).toHaveLength(32);
    expect(second).toEqual(first);
    const file = path.join(dataDir, 'secrets', 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.jwtSecret);
  });

  it('prefers the secrets given by the environment', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-config-'));
    const key = 'ab'.repeat(32);
    const secrets = await resolveSecrets(
      loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: key }),
    );
    expect(secrets.jwtSecret).toBe('x'.repeat(40));
    expect(secrets.encryptionKey.toString('hex')).toBe(key);
  });
});
