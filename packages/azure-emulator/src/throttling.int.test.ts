import { ComputeManagementClient } from '@azure/arm-compute';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

describe('Throttling and injected faults', () => {
  let kit: TestEmulator;
  let subscriptionId: string;

  beforeAll(async () => {
    kit = await startTestEmulator({
      throttleLimits: {
        readCapacity: 3,
        readRefillPerSecond: 1,
        virtualMachineUpdateCapacity: 1,
        virtualMachineUpdateRefillPerMinute: 60,
      },
    });
    subscriptionId = kit.emulator.tenants[1]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('answers 429 with Retry-After once the read bucket is empty, and counts every answer down', async () => {
    const token = await kit.readToken(1, 0);
    kit.emulator.resetStats();
    const path = `/subscriptions/${subscriptionId}/resourcegroups?api-version=2025-03-01`;
    const answers = [];
    // Sent until refused: on a slow machine the bucket may refill a token between two calls.
    for (let index = 0; index < 10 && answers.at(-1)?.status !== 429; index += 1) {
      answers.push(await kit.send('GET', path, { token }));
    }
    const throttled = answers.at(-1);
    const accepted = answers.slice(0, -1);
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(accepted.every((answer) => answer.status === 200)).toBe(true);
    expect(
      accepted.slice(0, 3).map((answer) => answer.headers['x-ms-ratelimit-remaining-subscription-reads']),
    ).toEqual(['2', '1', '0']);
    expect(throttled?.status).toBe(429);
    expect(throttled?.headers['retry-after']).toBe('1');
    expect(throttled?.headers['x-ms-ratelimit-remaining-subscription-reads']).toBe('0');
    expect(throttled?.body).toMatchObject({ error: { code: 'SubscriptionRequestsThrottled' } });
    expect(kit.emulator.stats.throttled).toBe(1);
    expect(kit.emulator.stats.calls['arm-read']).toBe(answers.length);
  });

  it('lets the SDK recover by honouring Retry-After', async () => {
    const credential = kit.createCredential(1, 0);
    const compute = new ComputeManagementClient(credential, subscriptionId, kit.armOptions);
    // Warm the credential's cache so the SDK's first request follows the draining at once.
    await credential.getToken(`${kit.emulator.url}/.default`);
    const token = await kit.readToken(1, 0);
    while (
      (
        await kit.send('GET', `/subscriptions/${subscriptionId}/resourcegroups?api-version=2025-03-01`, {
          token,
        })
      ).status !== 429
    ) {
      // Drain the bucket so the SDK's first attempt is throttled.
    }
    kit.emulator.resetStats();
    const started = Date.now();
    const first = await compute.virtualMachines.listAll().next();
    expect(first.value).toBeDefined();
    expect(kit.emulator.stats.throttled).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('throttles updates of one machine with its own bucket', async () => {
    const token = await kit.readToken(1, 0);
    const machine = kit.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.subscriptionId === subscriptionId,
    );
    if (!machine) throw new Error('The fleet has a machine');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const path = `${machine.id}/start?api-version=2025-04-01`;
    const accepted = await kit.send('POST', path, { token, body: '' });
    expect(accepted.status).toBe(202);
    expect(accepted.headers['azure-asyncoperation']).toMatch(/\/operations\//);
    expect(accepted.headers['x-ms-ratelimit-remaining-subscription-writes']).toBeDefined();
    let refused = await kit.send('POST', path, { token, body: '' });
    for (let attempt = 0; attempt < 5 && refused.status !== 429; attempt += 1) {
      refused = await kit.send('POST', path, { token, body: '' });
    }
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({ error: { code: 'TooManyRequests' } });
  });

  it('never throttles when switched off', async () => {
    const quiet = await startTestEmulator({
      throttling: false,
      throttleLimits: { readCapacity: 1, readRefillPerSecond: 0.01 },
    });
    try {
      const token = await quiet.readToken(0, 0);
      const path = `/subscriptions/${quiet.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? ''}/resourcegroups?api-version=2025-03-01`;
      const statuses = [];
      for (let index = 0; index < 5; index += 1)
        statuses.push((await quiet.send('GET', path, { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(quiet.emulator.stats.throttled).toBe(0);
    } finally {
      await quiet.stop();
    }
  });

  it('injects a counted number of server errors that the SDK retries through', async () => {
    const relaxed = await startTestEmulator({ throttling: false });
    try {
      const compute = new ComputeManagementClient(
        relaxed.createCredential(0, 0),
        relaxed.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '',
        relaxed.armOptions,
      );
      await compute.virtualMachines.listAll().next();
      relaxed.emulator.resetStats();
      relaxed.emulator.setFaults({ errorCount: 2, errorStatus: 500, kinds: ['arm-read'] });
      const first = await compute.virtualMachines.listAll().next();
      expect(first.value).toBeDefined();
      expect(relaxed.emulator.stats.faultsInjected).toBe(2);
      expect(relaxed.emulator.stats.calls['arm-read']).toBe(3);

      relaxed.emulator.setFaults({ delayMs: 150 });
      const started = Date.now();
      await compute.virtualMachines.listAll().next();
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      relaxed.emulator.setFaults();
    } finally {
      await relaxed.stop();
    }
  });
});
