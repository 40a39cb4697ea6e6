import { useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ComingSoon } from '../components/coming-soon';
import { LoadingScreen } from '../components/loading-screen';
import { RecentActivity } from '../features/activity/components/recent-activity';
import { Recommendations } from '../features/recommendations/components/recommendations';
import { CloudResources } from '../features/resources/components/cloud-resources';
import { PendingAutomation } from '../features/schedule/components/pending-automation';
import { ManageTeam } from '../features/team/components/manage-team';
import { ManageTenants } from '../features/tenants/components/manage-tenants';
import { paths } from '../config/paths';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { ProfileRoute } from './routes/profile';
import { RecoverRoute } from './routes/recover';
import { ResetPasswordRoute } from './routes/reset-password';
import { SandboxRoute } from './routes/sandbox';
import { SignUpRoute } from './routes/sign-up';
import { StartRoute } from './routes/start';
import { VerifyRoute } from './routes/verify';
import { loadSignedInShell, loadSignInArea, shouldAlwaysRevalidate } from './session-loaders';
import { getComingSoonTitle } from './shell/menu-items';
import { SignedInShell } from './shell/signed-in-shell';
import { SignInLayout } from './sign-in/sign-in-layout';

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
          { path: paths.signUp, element: <SignUpRoute /> },
          { path: paths.recover, element: <RecoverRoute /> },
          { path: paths.resetPassword, element: <ResetPasswordRoute /> },
          { path: paths.verify, element: <VerifyRoute /> },
        ],
      },
      { path: paths.sandbox, element: <SandboxRoute /> },
      {
        element: <SignedInShell />,
        loader: loadSignedInShell,
        shouldRevalidate: shouldAlwaysRevalidate,
        children: [
          { path: paths.home, element: <RecentActivity /> },
          { path: paths.logs, element: <RecentActivity /> },
          { path: paths.resources, element: <CloudResources /> },
          { path: paths.pending, element: <PendingAutomation /> },
          { path: paths.team, element: <ManageTeam /> },
          { path: paths.tenants, element: <ManageTenants /> },
          { path: paths.profile, element: <ProfileRoute /> },
          { path: paths.recommendations, element: <Recommendations /> },
          {
            path: paths.automation,
            element: <ComingSoon featureName={getComingSoonTitle(paths.automation)} />,
          },
          { path: paths.analysis, element: <ComingSoon featureName={getComingSoonTitle(paths.analysis)} /> },
          { path: paths.security, element: <ComingSoon featureName={getComingSoonTitle(paths.security)} /> },
          // SPEC maps /sidebar to the shell itself; it opens on the home screen rather than an empty frame.
          { path: paths.sidebar, element: <RecentActivity /> },
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
