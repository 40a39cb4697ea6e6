// API answers carry the caller's data (sessions, tenants, logs): no browser or proxy keeps a copy
// unless a route deliberately makes its answer cacheable by setting its own Cache-Control (the
// Cloud Resources list: `private, no-cache` with a weak ETag, revalidated into 304s). An error is
// never cacheable, whatever the route set before failing. The OpenAPI document under /api/docs is
// no-store too: it changes with every release and costs nothing to build again.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiRequest(request) && (reply.statusCode >= 400 || !reply.hasHeader('cache-control'))) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}

// The matched route's pattern, or the path as sent for a request that matched none (an /api 404).
function isApiRequest(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? request.url).startsWith('/api/');
}
