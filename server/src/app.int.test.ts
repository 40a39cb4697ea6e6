import type { FastifyInstance } from 'fastify';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/helper';
import { buildApp } from './app';
import { ForegroundGauge } from './lib/foreground';

let context: TestContext;
let app: FastifyInstance;
// The requests in flight, as a job thread in the same process would see them.
const foreground = new ForegroundGauge();
const script = `console.log(${JSON.stringify('Cloudtrim '.repeat(400))});`;

beforeAll(async () => {
  context = await createTestContext();
  // A web build as Vite's writes it: hashed assets with their brotli and gzip copies beside them.
  const webRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-web-'));
  await mkdir(path.join(webRoot, 'assets'));
  await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Cloudtrim</title>');
  const asset = path.join(webRoot, 'assets', 'index-Ab12Cd34.js');
  await writeFile(asset, script);
  await writeFile(`${asset}.br`, brotliCompressSync(script));
  await writeFile(`${asset}.gz`, gzipSync(script));
  app = await buildApp(context.container, { webRoot, foreground });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await context.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('the web app', () => {
  it('answers every app path with index.html, revalidated on each load', async () => {
    for (const url of ['/', '/resources', '/ResetPassword?email=a%40b.c&code=x', '/no/such/page']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>Cloudtrim</title>');
    }
  });

  it('sends a hashed asset as the compressed copy the browser accepts, cached for a year', async () => {
    const brotli = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(script.length / 10);
    const gzipped = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers 404 for a missing asset or API path rather than the app page', async () => {
    const asset = await get('/assets/index-Old00000.js');
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).toMatch(/^application\/json/);
    expect((await get('/api/v1/no-such-call')).statusCode).toBe(404);
  });
});

describe('the requests in flight, which a job thread gives way to', () => {
  it('count each request until its response, whatever it answered', async () => {
    const answers = await Promise.all([
      get('/'),
      get('/healthz'),
      get('/api/v1/resource'),
      get('/api/v1/no-such-call', { authorization: 'Bearer nonsense' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404]);
    // None is left counted: a job thread waiting for the API to be idle goes on at once (a wait of a
    // minute would time the test out).
    await foreground.giveWay(60_000);
  });
});
