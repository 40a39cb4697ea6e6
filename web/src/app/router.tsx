import { useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LoadingScreen } from '../components/loading-screen';
import { paths } from '../config/paths';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { StartRoute } from './routes/start';
import { loadSignedInShell, loadSignInArea, shouldAlwaysRevalidate } from './session-loaders';
import { SignInLayout } from './sign-in/sign-in-layout';

// Only the sign-in area's first screens ship in the first load; every other screen, the signed-in
// shell above all, is a chunk of its own fetched when its route matches (SPEC's budgets: 110 KB
// gzip for the public area, 180 KB for the shell). React Router loads a match's chunks in parallel.
const lazyScreen =
  <Module,>(load: () => Promise<Module>, pick: (module: Module) => React.ComponentType) =>
  async () => ({ Component: pick(await load()) });

const recentActivity = lazyScreen(
  () => import('../features/activity/components/recent-activity'),
  (module) => module.RecentActivity,
);

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: LoadingScreen,
    children: [
      {
        element: <SignInLayout />,
        loader: loadSignInArea,
        shouldRevalidate: shouldAlwaysRevalidate,
        children: [
          { path: paths.start, element: <StartRoute /> },
          { path: paths.login, element: <LoginRoute /> },
          {
            path: paths.signUp,
            lazy: lazyScreen(
              () => import('./routes/sign-up'),
              (module) => module.SignUpRoute,
            ),
          },
          {
            path: paths.recover,
            lazy: lazyScreen(
              () => import('./routes/recover'),
              (module) => module.RecoverRoute,
            ),
          },
          {
            path: paths.resetPassword,
            lazy: lazyScreen(
              () => import('./routes/reset-password'),
              (module) => module.ResetPasswordRoute,
            ),
          },
          {
            path: paths.verify,
            lazy: lazyScreen(
              () => import('./routes/verify'),
              (module) => module.VerifyRoute,
            ),
          },
        ],
      },
      {
        path: paths.sandbox,
        lazy: lazyScreen(
          () => import('./routes/sandbox'),
          (module) => module.SandboxRoute,
        ),
      },
      {
        lazy: lazyScreen(
          () => import('./shell/signed-in-shell'),
          (module) => module.SignedInShell,
        ),
        loader: loadSignedInShell,
        shouldRevalidate: shouldAlwaysRevalidate,
        children: [
          { path: paths.home, lazy: recentActivity },
          { path: paths.logs, lazy: recentActivity },
          {
            path: paths.resources,
            lazy: lazyScreen(
              () => import('./routes/resources'),
              (module) => module.ResourcesRoute,
            ),
          },
          {
            path: paths.pending,
            lazy: lazyScreen(
              () => import('../features/schedule/components/pending-automation'),
              (module) => module.PendingAutomation,
            ),
          },
          {
            path: paths.team,
            lazy: lazyScreen(
              () => import('../features/team/components/manage-team'),
              (module) => module.ManageTeam,
            ),
          },
          {
            path: paths.tenants,
            lazy: lazyScreen(
              () => import('../features/tenants/components/manage-tenants'),
              (module) => module.ManageTenants,
            ),
          },
          {
            path: paths.profile,
            lazy: lazyScreen(
              () => import('./routes/profile'),
              (module) => module.ProfileRoute,
            ),
          },
          {
            path: paths.recommendations,
            lazy: lazyScreen(
              () => import('./routes/recommendations'),
              (module) => module.RecommendationsRoute,
            ),
          },
          {
            path: paths.automation,
            lazy: lazyScreen(
              () => import('./routes/automation'),
              (module) => module.AutomationRoute,
            ),
          },
          {
            path: paths.analysis,
            lazy: lazyScreen(
              () => import('./routes/analysis'),
              (module) => module.AnalysisRoute,
            ),
          },
          {
            path: paths.security,
            lazy: lazyScreen(
              () => import('./routes/security'),
              (module) => module.SecurityRoute,
            ),
          },
          // SPEC maps /sidebar to the shell itself; it opens on the home screen rather than an empty frame.
          { path: paths.sidebar, lazy: recentActivity },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
