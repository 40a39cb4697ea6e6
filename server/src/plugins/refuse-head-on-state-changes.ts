// SPEC §7 makes "apply now" and "apply at the maintenance window" GETs, and Fastify answers HEAD for
// every GET by running the GET's handler: a link checker, a proxy or a prefetcher sending HEAD would
// apply a recommendation. HEAD on a GET that changes state is refused before anything runs.
import type { FastifyInstance } from 'fastify';

// The routes (as their patterns read) whose GET changes state.
export const stateChangingGetRoutes: ReadonlySet<string> = new Set([
  '/api/v1/log/recommendation/apply/now',
  '/api/v1/log/recommendation/apply/maintenancewindow',
]);

export const headNotAllowedText = 'This address changes state: only GET is allowed.';

export function refuseHeadOnStateChanges(app: FastifyInstance): void {
  // By the matched route's pattern (as authentication decides), so every spelling of the path is caught;
  // ahead of authentication in the hook order, so an unauthenticated HEAD is refused the same way.
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (request.method !== 'HEAD' || route === undefined || !stateChangingGetRoutes.has(route)) {
      return done();
    }
    reply.code(405).header('allow', 'GET').send({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: headNotAllowedText,
    });
  });
}
