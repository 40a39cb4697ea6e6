// @vitest-environment jsdom
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, requestBlob, requestJson, requestVoid } from './api-client';
import { clearSession, sessionStorageKeys } from './session';
import { getStatus401, setStatus401 } from './status-401';

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return new Response(status === 204 ? null : text, {
    status,
    statusText: status === 401 ? 'Unauthorized' : '',
  });
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem(sessionStorageKeys.token, 'stored-token');
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  clearSession();
  setStatus401(false);
});

function readSentHeaders(): Headers {
  const init = fetchMock.mock.calls[0]?.[1];
  return new Headers(init?.headers);
}

describe('requestJson', () => {
  it('sends the stored token as a bearer and a JSON body, and parses the answer by schema', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { Data: [1, 2] }));
    const result = await requestJson('/api/v1/thing', z.object({ Data: z.array(z.number()) }), {
      method: 'POST',
      body: { name: 'x' },
    });
    expect(result).toEqual({ Data: [1, 2] });
    expect(readSentHeaders().get('Authorization')).toBe('Bearer stored-token');
    expect(readSentHeaders().get('Content-Type')).toBe('application/json');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"name":"x"}');
  });

  it('sends no bearer on a public call', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, 'a.b.c'));
    await requestJson('/api/v1/token', z.string(), { method: 'POST', body: {}, isAuthenticated: false });
    expect(readSentHeaders().has('Authorization')).toBe(false);
  });

  it('refuses an answer that does not match the contract', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { unexpected: true }));
    await expect(requestJson('/api/v1/thing', z.object({ Data: z.array(z.number()) }))).rejects.toThrow();
  });
});

describe('requestBlob', () => {
  it('asks for the media type it names, with the bearer, and hands back the file', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('A,B\n1,2\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    );
    const file = await requestBlob('/api/v1/cost/export?from=2026-11-01&to=2026-11-30', {
      accept: 'text/csv',
    });
    expect(await file.text()).toBe('A,B\n1,2\n');
    expect(file.type).toBe('text/csv');
    expect(readSentHeaders().get('Accept')).toBe('text/csv');
    expect(readSentHeaders().get('Authorization')).toBe('Bearer stored-token');
  });

  it('fails like every call, with the status and the server message', async () => {
    fetchMock.mockResolvedValueOnce(answer(400, { message: 'from must not be after to.' }));
    await expect(requestBlob('/api/v1/cost/export?from=2026-12-01&to=2026-11-01')).rejects.toMatchObject({
      status: 400,
      message: 'from must not be after to.',
    });
  });
});

describe('failures', () => {
  it('turns a 401 on a signed-in call into the global Status401 state', async () => {
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Session ended' }));
    await expect(requestVoid('/api/v1/account/details')).rejects.toMatchObject({ status: 401 });
    expect(getStatus401()).toBe(true);
  });

  it('leaves Status401 alone for a public call or a log-out', async () => {
    fetchMock.mockResolvedValueOnce(answer(401)).mockResolvedValueOnce(answer(401));
    await expect(requestVoid('/api/v1/token', { method: 'POST', isAuthenticated: false })).rejects.toThrow(
      ApiError,
    );
    await expect(requestVoid('/api/v1/token', { method: 'DELETE', canExpireSession: false })).rejects.toThrow(
      ApiError,
    );
    expect(getStatus401()).toBe(false);
  });

  it('ignores a late 401 for a session that has already been replaced', async () => {
    fetchMock.mockImplementationOnce(async () => {
      localStorage.setItem(sessionStorageKeys.token, 'newer-token');
      return answer(401);
    });
    await expect(requestVoid('/api/v1/tenant')).rejects.toThrow(ApiError);
    expect(getStatus401()).toBe(false);
  });

  it('carries the status and the server message', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(409, { statusCode: 409, error: 'Conflict', message: 'Already there' }),
    );
    const error = await requestVoid('/api/v1/tenant', { method: 'POST', body: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Already there' });
  });

  it('reports a network failure with no status', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await requestVoid('/api/v1/tenant').catch((caught) => caught);
    expect(error).toMatchObject({ status: null, message: 'Failed to fetch' });
  });
});
