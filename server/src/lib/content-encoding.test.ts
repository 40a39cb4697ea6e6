import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeBody, negotiateEncoding } from './content-encoding';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('encodeBody', () => {
  const body = Buffer.from(
    JSON.stringify(Array.from({ length: 500 }, (_, index) => ({ index, name: 'vm' }))),
  );

  it('round-trips brotli and gzip, and leaves identity as it is', async () => {
    expect(brotliDecompressSync(await encodeBody(body, 'br')).equals(body)).toBe(true);
    expect(gunzipSync(await encodeBody(body, 'gzip')).equals(body)).toBe(true);
    expect(await encodeBody(body, 'identity')).toBe(body);
  });
});
