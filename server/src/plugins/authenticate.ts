// Every /api route needs a valid session unless its route config says `isPublic`: deny by default.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../lib/http-errors';
import type { AuthContext, AuthService } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    isPublic?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}

export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('auth', undefined);
  app.addHook('onReady', async () => auth.startSessionCache());
  app.addHook('onClose', () => auth.stopSessionCache());
  app.addHook('onRequest', async (request) => {
    // By the matched route's pattern, never the URL as sent: '/%61pi/…' matches an /api route too.
    // A request that matched no route goes on to the not-found answer.
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || route.startsWith('/api/docs')) return;
    if (request.routeOptions.config?.isPublic) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized();
    request.auth = await auth.authenticate(match[1]!);
  });
}

export function getAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
