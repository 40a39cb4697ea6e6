import type { z } from 'zod';
import { env } from '../config/env';
import { parseAnswerText } from './answer-text';
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
  signal?: AbortSignal;
}

/** A call as `send` makes it: its URL, headers and the session token it carries. */
export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  token: string | null;
  canExpireSession: boolean;
}

/** The URL and headers of a call, for one made elsewhere than `send` (a worker reading a large answer). */
export function prepareRequest(path: string, options: RequestOptions = {}): PreparedRequest {
  const { body, isAuthenticated = true } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = isAuthenticated ? readToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  return {
    url: `${env.apiBaseUrl}${path}`,
    headers,
    token,
    canExpireSession: options.canExpireSession ?? isAuthenticated,
  };
}

/** The error of a call answered with an error status; a 401 on the stored session sets Status401. */
export function createAnswerError(
  request: PreparedRequest,
  answer: { status: number; statusText: string; body: unknown },
): ApiError {
  const { status, statusText, body } = answer;
  // Only the session still stored can expire: a late answer for one already ended (log-out,
  // another login) must not send the user to /login?expired.
  if (status === 401 && request.canExpireSession && request.token !== null && readToken() === request.token) {
    setStatus401(true);
  }
  const message =
    typeof body === 'object' && body !== null && 'message' in body
      ? String(body.message)
      : statusText || `Request failed with status ${status}`;
  return new ApiError(status, statusText, message, body);
}

/** The error of a call that got no answer at all. */
export function createNetworkError(error: unknown): ApiError {
  return new ApiError(null, '', error instanceof Error ? error.message : 'Failed to fetch');
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = 'GET', body, signal } = options;
  const request = prepareRequest(path, options);

  let response: Response;
  try {
    response = await fetch(request.url, {
      method,
      headers: request.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw createNetworkError(error);
  }

  if (!response.ok) {
    const errorBody = await readBody(response);
    throw createAnswerError(request, {
      status: response.status,
      statusText: response.statusText,
      body: errorBody,
    });
  }
  return response;
}

async function readBody(response: Response): Promise<unknown> {
  return parseAnswerText(await response.text());
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

/** Calls the API for its effect; whatever the answer holds is not read. */
export async function requestVoid(path: string, options: RequestOptions = {}): Promise<void> {
  await send(path, options);
}
