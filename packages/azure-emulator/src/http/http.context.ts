import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestContext {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly method: string;
  /** The path with repeated slashes collapsed, original casing kept. */
  readonly path: string;
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
  /** Scheme, host and port as the client addressed us, for links such as nextLink. */
  readonly origin: string;
  readonly requestId: string;
  /** Headers added to whatever answer is sent (throttling counters, for instance). */
  readonly extraHeaders: Record<string, string>;
  rawBody: string;
}

const maximumBodyBytes = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super(`Request bodies are limited to ${maximumBodyBytes} bytes.`);
    this.name = 'BodyTooLargeError';
  }
}

export function createRequestContext(request: IncomingMessage, response: ServerResponse): RequestContext {
  const host = request.headers.host ?? '127.0.0.1';
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  // Not parsed with `new URL`: the Monitor client sends resource ids that start with '/', giving
  // paths like '//subscriptions/...' that URL parsing would read as a host name.
  const rawPath = queryStart >= 0 ? target.slice(0, queryStart) : target;
  const path = decodeURIComponent(rawPath).replace(/\/{2,}/g, '/');
  return {
    request,
    response,
    method: (request.method ?? 'GET').toUpperCase(),
    path,
    segments: path.split('/').filter((segment) => segment.length > 0),
    query: new URLSearchParams(queryStart >= 0 ? target.slice(queryStart + 1) : ''),
    origin: `https://${host}`,
    requestId: randomUUID(),
    extraHeaders: {},
    rawBody: '',
  };
}

export async function readRequestBody(context: RequestContext): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of context.request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maximumBodyBytes) throw new BodyTooLargeError();
    chunks.push(buffer);
  }
  context.rawBody = Buffer.concat(chunks).toString('utf8');
  return context.rawBody;
}

/** Reads a query parameter by name without regard to case, as Azure services do. */
export function readQuery(context: RequestContext, name: string): string | undefined {
  const direct = context.query.get(name);
  if (direct !== null) return direct;
  const wanted = name.toLowerCase();
  for (const [key, value] of context.query) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

export function sendJson(
  context: RequestContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const response = context.response;
  if (response.headersSent) return;
  response.writeHead(status, {
    ...(payload ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': String(Buffer.byteLength(payload)),
    'x-ms-request-id': context.requestId,
    'x-ms-correlation-request-id':
      readHeaderText(context.request.headers['x-ms-client-request-id']) ?? context.requestId,
    ...context.extraHeaders,
    ...headers,
  });
  response.end(payload);
}

export function readHeaderText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Resource Manager's error body: `{ error: { code, message } }`. */
export function sendArmError(
  context: RequestContext,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(context, status, { error: { code, message } }, headers);
}
