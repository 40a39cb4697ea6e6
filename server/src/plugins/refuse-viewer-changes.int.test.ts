// A Viewer reads only (issue 23 §2): every signed-in route that changes something, as the OpenAPI
// document lists them (plus SPEC's GETs that apply a recommendation), answers 403 with one sentence
// before its handler runs; only the Viewer's own session, profile, password, mail preferences and the
// pipeline preview stay open to them. A role change holds from the next call.
import { viewerReadOnlyText } from '@cloudtrim/contracts/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestContext,
  createUser,
  logIn,
  type TestContext,
  type TestUser,
} from '../../test/helper';
import { stateChangingGetRoutes } from './refuse-head-on-state-changes';
import { viewerMayRoutes } from './refuse-viewer-changes';

let context: TestContext;
let ownerToken: string;
let viewerToken: string;
let viewer: TestUser;

const anyId = '00000000-0000-4000-8000-000000000000';
const changingMethods = ['post', 'put', 'patch', 'delete'] as const;

// The document's paths as the routes' patterns read ('/api/v1/pipeline/{id}' → '/api/v1/pipeline/:id').
function listChangingRoutes(): { method: string; route: string }[] {
  const document = context.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const routes: { method: string; route: string }[] = [];
  for (const [openApiPath, operations] of Object.entries(document.paths)) {
    const route = openApiPath.replace(/\{\*\}/g, '*').replace(/\{([^}]+)\}/g, ':$1');
    for (const method of changingMethods) {
      if (operations[method]) routes.push({ method: method.toUpperCase(), route });
    }
    if (operations.get && stateChangingGetRoutes.has(route)) routes.push({ method: 'GET', route });
  }
  return routes;
}

const toUrl = (route: string) => route.replace(/:[^/]+/g, anyId).replace(/\*/g, anyId);

beforeAll(async () => {
  context = await createTestContext();
  const owner = await createUser(context);
  viewer = await createUser(context, { teamId: owner.teamId, role: 'Viewer' });
  ownerToken = await logIn(context, owner);
  viewerToken = await logIn(context, viewer);
});

afterAll(async () => {
  await context?.close();
});

describe('a Viewer', () => {
  it('is refused every signed-in call that changes something, with one sentence, before it runs', async () => {
    const routes = listChangingRoutes();
    // The table is the app's own: a route added later is covered without a change here.
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'POST', route: '/api/v1/pipeline/:id/run' },
        { method: 'POST', route: '/api/v1/approval/:id' },
        { method: 'POST', route: '/api/v1/colleague' },
        { method: 'PUT', route: '/api/v1/team/role' },
        { method: 'GET', route: '/api/v1/log/recommendation/apply/now' },
      ]),
    );
    const refused: string[] = [];
    for (const { method, route } of routes) {
      const call = `${method} ${route}`;
      const anonymous = await context.app.inject({
        method: method as 'POST',
        url: toUrl(route),
        payload: {},
      });
      // A public call (log in, sign up, reset a password) has no team and no role.
      if (anonymous.statusCode !== 401) continue;
      const isAllowed = viewerMayRoutes.has(call);
      const response = await context.app.inject({
        method: method as 'POST',
        url: toUrl(route),
        // An allowed call may end its session (log out): it gets one of its own.
        headers: bearer(isAllowed ? await logIn(context, viewer) : viewerToken),
        payload: {},
      });
      if (isAllowed) {
        expect(response.statusCode, call).not.toBe(403);
        // Logging out everywhere ends the Viewer's other session too.
        viewerToken = await logIn(context, viewer);
        continue;
      }
      expect(response.statusCode, call).toBe(403);
      expect(response.json<{ message: string }>().message, call).toBe(viewerReadOnlyText);
      refused.push(call);
    }
    expect(refused.length).toBeGreaterThan(20);
  });

  it('still reads, and may change things from the call after an Owner makes them a Member', async () => {
    expect(
      (await context.app.inject({ method: 'GET', url: '/api/v1/team', headers: bearer(viewerToken) }))
        .statusCode,
    ).toBe(200);
    const settings = { LookbackDays: 21, DefaultMaintenanceWindow: 3 };
    const save = () =>
      context.app.inject({
        method: 'PUT',
        url: '/api/v1/team/settings',
        headers: bearer(viewerToken),
        payload: settings,
      });
    expect((await save()).statusCode).toBe(403);
    const promoted = await context.app.inject({
      method: 'PUT',
      url: '/api/v1/team/role',
      headers: bearer(ownerToken),
      payload: { emailAddress: viewer.email, role: 'Member' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const saved = await save();
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(settings);
  });
});
