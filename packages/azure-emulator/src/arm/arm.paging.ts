import { readQuery, sendJson, type RequestContext } from '../http/http.context';

function readOffset(context: RequestContext): number {
  const token = readQuery(context, '$skiptoken');
  if (!token) return 0;
  const offset = Number(Buffer.from(token, 'base64url').toString('utf8'));
  return Number.isInteger(offset) && offset > 0 ? offset : 0;
}

function buildNextLink(context: RequestContext, offset: number): string {
  const kept: string[] = [];
  for (const [key, value] of context.query) {
    if (key.toLowerCase() === '$skiptoken') continue;
    kept.push(`${encodeURIComponent(key).replace(/^%24/, '$')}=${encodeURIComponent(value)}`);
  }
  kept.push(`$skiptoken=${Buffer.from(String(offset)).toString('base64url')}`);
  const path = context.segments.map((segment) => encodeURIComponent(segment)).join('/');
  return `${context.origin}/${path}?${kept.join('&')}`;
}

/** Sends one page of a Resource Manager list: `{ value, nextLink? }`. */
export function sendPage<Item>(
  context: RequestContext,
  items: readonly Item[],
  describe: (item: Item) => unknown,
  pageSize: number,
): void {
  const offset = readOffset(context);
  const end = Math.min(items.length, offset + Math.max(1, pageSize));
  const value: unknown[] = [];
  for (let index = offset; index < end; index += 1) {
    const item = items[index];
    if (item !== undefined) value.push(describe(item));
  }
  sendJson(context, 200, end < items.length ? { value, nextLink: buildNextLink(context, end) } : { value });
}
