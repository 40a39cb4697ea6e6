import type { z } from 'zod';
import { env } from '../config/env';
import { readToken } from './session';
import { setStatus401 } from './status-401';

export class ApiError extends Error {
  /** null when no answer arrived at all (network failure). */
  readonly status: number | null;
  readonly statusText: string;
  readonly body: unknown;

  constructor(status: number | null, statusText: string, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** Send the stored bearer token (default true). */
  isAuthenticated?: boolean;
  /** A 401 sets the global Status401 state (default: when authenticated). Log-out calls turn it off. */
  canExpireSession?: boolean;
  /** The media type asked for (default JSON). */
  accept?: string;
  signal?: AbortSignal;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = 'GET', body, isAuthenticated = true, accept = 'application/json', signal } = options;
  const canExpireSession = options.canExpireSession ?? isAuthenticated;
  const headers = new Headers({ Accept: accept });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const token = isAuthenticated ? readToken() : null;
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(`${env.apiBaseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(null, '', error instanceof Error ? error.message : 'Failed to fetch');
  }

  if (!response.ok) {
    // Only the session still stored can expire: a late answer for one already ended (log-out,
    // another login) must not send the user to /login?expired.
    if (response.status === 401 && canExpireSession && token !== null && readToken() === token) {
      setStatus401(true);
    }
    const errorBody = await readBody(response);
    const message =
      typeof errorBody === 'object' && errorBody !== null && 'message' in errorBody
        ? String(errorBody.message)
        : response.statusText || `Request failed with status ${response.status}`;
    throw new ApiError(response.status, response.statusText, message, errorBody);
  }
  return response;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Calls the API and validates the JSON answer with the contract's schema. */
export async function requestJson<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  return requestAnswer(path, (answer) => schema.parse(answer), options);
}

/** Calls the API and reads the JSON answer through `read`, for an answer checked in steps. */
export async function requestAnswer<Answer>(
  path: string,
  read: (answer: unknown) => Answer,
  options: RequestOptions = {},
): Promise<Answer> {
  const response = await send(path, options);
  return read(await readBody(response));
}

/** Calls the API for a file (a CSV export), with the same token and failures as every other call. */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options);
  return response.blob();
}

/** Calls the API for its effect; whatever the answer holds is not read. */
export async function requestVoid(path: string, options: RequestOptions = {}): Promise<void> {
  await send(path, options);
}
