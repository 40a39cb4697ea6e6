// Content negotiation for large JSON answers that are encoded once and served many times.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// The best encoding the client accepts (RFC 9110 §12.5.3): brotli, then gzip, else none. An entry
// with q=0 refuses that encoding; `*` stands for any encoding not named.
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const entry of acceptEncoding.split(',')) {
    const [name, ...parameters] = entry.trim().toLowerCase().split(';');
    if (!name) continue;
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)).find(Boolean);
    weights.set(name, quality ? Number(quality[1]) : 1);
  }
  const accepts = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

// Compressed on the thread pool, so a megabyte list never blocks the event loop.
export function encodeBody(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  switch (encoding) {
    case 'br':
      return brotli(body, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
    case 'gzip':
      return gzipAsync(body, { level: 6 });
    case 'identity':
      return Promise.resolve(body);
  }
}
