// A Viewer reads only (issue 23 §2): every call that changes something, in the team or in Azure, is
// refused here, in one place, before its handler runs. Only the Viewer's own session, profile,
// password and mail preferences stay theirs to change, and the pipeline preview, which writes nothing.
import { viewerReadOnlyText, type TeamRole } from '@cloudtrim/contracts/team';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../lib/http-errors';
import { stateChangingGetRoutes } from './refuse-head-on-state-changes';

// By method and the matched route's pattern.
export const viewerMayRoutes: ReadonlySet<string> = new Set([
  'DELETE /api/v1/token',
  'DELETE /api/v1/token/all',
  'PUT /api/v1/account/details',
  'PUT /api/v1/customerprofile/password',
  'PUT /api/v1/alert/preferences',
  'POST /api/v1/pipeline/preview',
]);

const readingMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isChangingCall(method: string, route: string): boolean {
  if (readingMethods.has(method)) return method === 'GET' && stateChangingGetRoutes.has(route);
  return !viewerMayRoutes.has(`${method} ${route}`);
}

// After authentication in the hook order: only a signed-in call has a role. The role is read afresh
// on each changing call, so a new role holds from the next call on.
export function refuseViewerChanges(
  app: FastifyInstance,
  findRole: (userId: string) => Promise<TeamRole | undefined>,
): void {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!request.auth || route === undefined || !isChangingCall(request.method, route)) return;
    if ((await findRole(request.auth.userId)) === 'Viewer') throw forbidden(viewerReadOnlyText);
  });
}
