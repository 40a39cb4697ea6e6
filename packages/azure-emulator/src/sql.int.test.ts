import { MonitorClient } from '@azure/arm-monitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWriteCount } from './emulator.stats';
import type { SqlDatabaseRecord } from './fleet/fleet.model';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const apiVersion = 'api-version=2023-08-01';
const minuteMs = 60_000;
const changeMs = Date.UTC(2026, 10, 18, 15, 0);

interface DatabaseView {
  readonly sku: { readonly name: string; readonly tier: string; readonly capacity: number };
  readonly properties: {
    readonly currentServiceObjectiveName: string;
    readonly requestedServiceObjectiveName: string;
    readonly maxSizeBytes: number;
  };
}

describe('SQL databases (Microsoft.Sql, raw calls)', () => {
  let kit: TestEmulator;
  let token: string;
  let clockMs = changeMs;

  function pickDatabase(predicate: (database: SqlDatabaseRecord) => boolean): SqlDatabaseRecord {
    const database = kit.emulator.fleet.sqlDatabases.find(predicate);
    if (!database) throw new Error('The fleet has a fitting database');
    return database;
  }

  async function readDatabase(database: SqlDatabaseRecord): Promise<DatabaseView> {
    return (await kit.send('GET', `${database.id}?${apiVersion}`, { token })).body as DatabaseView;
  }

  beforeAll(async () => {
    kit = await startTestEmulator({ now: () => new Date(clockMs), operationDurationMs: 400 });
    token = await kit.readToken(0, 0);
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('moves a database to a smaller objective once the long-running operation completes', async () => {
    const database = pickDatabase((candidate) => candidate.sku.serviceObjective === 'S3');
    clockMs = changeMs;
    kit.emulator.resetStats();
    const accepted = await kit.send('PATCH', `${database.id}?${apiVersion}`, {
      token,
      body: JSON.stringify({ sku: { name: 'S1', tier: 'Standard' } }),
    });
    expect(accepted.status).toBe(202);
    expect(accepted.headers['location']).toBeDefined();
    const during = await readDatabase(database);
    expect(during.properties).toMatchObject({
      currentServiceObjectiveName: 'S3',
      requestedServiceObjectiveName: 'S1',
    });
    let status = 'InProgress';
    const operationPath = String(accepted.headers['azure-asyncoperation']).slice(kit.emulator.url.length);
    while (status === 'InProgress') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = ((await kit.send('GET', operationPath, { token })).body as { status: string }).status;
    }
    expect(status).toBe('Succeeded');
    const after = await readDatabase(database);
    expect(after.properties).toMatchObject({
      currentServiceObjectiveName: 'S1',
      requestedServiceObjectiveName: 'S1',
    });
    expect(after.sku).toMatchObject({ name: 'Standard', tier: 'Standard', capacity: 20 });
    expect(readWriteCount(kit.emulator.stats, database.id)).toBe(1);

    // DTU use follows the new objective from the next minute: the same demand on a fifth of the DTUs.
    clockMs = changeMs + 30 * minuteMs;
    const monitor = new MonitorClient(kit.createCredential(0, 0), database.subscriptionId, kit.armOptions);
    const metrics = await monitor.metrics.list(database.id, {
      metricnames: 'dtu_consumption_percent,cpu_percent,storage',
      timespan: `${new Date(changeMs - 30 * minuteMs).toISOString()}/${new Date(changeMs + 30 * minuteMs).toISOString()}`,
      interval: 'PT1M',
      aggregation: 'Average,Maximum',
    });
    const [dtu, cpu, storage] = metrics.value.map((metric) => metric.timeseries?.[0]?.data ?? []);
    expect(dtu).toHaveLength(60);
    const mean = (points: typeof dtu, from: number, to: number) =>
      (points ?? []).slice(from, to).reduce((sum, point) => sum + (point.average ?? 0), 0) / (to - from);
    expect(mean(dtu, 30, 60)).toBeGreaterThan(mean(dtu, 0, 30) * 3);
    expect(dtu?.[45]?.average).toBeCloseTo(cpu?.[45]?.average ?? -1, 6);
    expect(storage?.[0]?.maximum).toBe(database.usedSizeBytes);
  });

  it('refuses an unknown objective and a size below the space used, changing nothing', async () => {
    const database = pickDatabase((candidate) => candidate.sku.serviceObjective === 'S2');
    kit.emulator.resetStats();
    const unknown = await kit.send('PATCH', `${database.id}?${apiVersion}`, {
      token,
      body: JSON.stringify({ sku: { name: 'S99' } }),
    });
    expect(unknown.status).toBe(400);
    const tooSmall = await kit.send('PATCH', `${database.id}?${apiVersion}`, {
      token,
      body: JSON.stringify({ sku: { name: 'S1' }, properties: { maxSizeBytes: 1024 } }),
    });
    expect(tooSmall.status).toBe(400);
    expect((await readDatabase(database)).properties.currentServiceObjectiveName).toBe('S2');
    expect(readWriteCount(kit.emulator.stats, database.id)).toBe(0);
  });

  it('reports no DTU use for a vCore database', async () => {
    const database = pickDatabase((candidate) => candidate.sku.family === 'Gen5');
    const monitor = new MonitorClient(kit.createCredential(0, 0), database.subscriptionId, kit.armOptions);
    const metrics = await monitor.metrics.list(database.id, {
      metricnames: 'dtu_consumption_percent,cpu_percent',
      timespan: `${new Date(changeMs - 10 * minuteMs).toISOString()}/${new Date(changeMs).toISOString()}`,
      interval: 'PT1M',
      aggregation: 'Average',
    });
    const [dtu, cpu] = metrics.value.map((metric) => metric.timeseries?.[0]?.data ?? []);
    expect(dtu?.every((point) => point.average === undefined)).toBe(true);
    expect(cpu?.every((point) => point.average !== undefined)).toBe(true);
  });

  it('serves the DTU and vCore meters of the Retail Prices API', async () => {
    const filter =
      "serviceName eq 'SQL Database' and armRegionName eq 'eastus' and (meterName eq 'S3 DTUs' or meterName eq 'vCore')";
    const answer = await kit.send('GET', `/api/retail/prices?$filter=${encodeURIComponent(filter)}`);
    const items = (
      answer.body as {
        Items: { productName: string; skuName: string; unitOfMeasure: string; retailPrice: number }[];
      }
    ).Items;
    expect(
      items.map((item) => [item.productName, item.skuName, item.unitOfMeasure, item.retailPrice]).sort(),
    ).toEqual([
      ['SQL Database Single Standard', 'S3', '1/Day', 4.8387],
      ['SQL Database Single/Elastic Pool Business Critical - Compute Gen5', 'vCore', '1 Hour', 0.6808],
      ['SQL Database Single/Elastic Pool General Purpose - Compute Gen5', 'vCore', '1 Hour', 0.2522],
    ]);
  });
});
