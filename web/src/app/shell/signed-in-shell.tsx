import { useDeferredValue } from 'react';
import { Navigate, Outlet, useLoaderData, useLocation } from 'react-router';
import { LoadingScreen } from '../../components/loading-screen';
import { useTenants } from '../../features/tenants/api/get-tenants';
import { createReturnToState } from '../../lib/return-to';
import type { loadSignedInShell } from '../session-loaders';
import { createLoginHref, paths } from '../../config/paths';
import { useStatus401 } from '../../lib/status-401';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

function SignedInLayout() {
  const { pathname } = useLocation();
  const tenants = useTenants();
  // The tenant list's arrival renders at once, in one piece: the whole shell and the screen in it,
  // a long task that delays any input meanwhile. Deferred, the shell is rendered as a transition,
  // which React works in 5 ms slices, while 'Loading' stays up.
  const isTenantListPending = useDeferredValue(tenants.isPending);

  // SPEC §2: every screen but /home waits for the tenant list behind a full-page 'Loading'.
  if (isTenantListPending && pathname !== paths.home) return <LoadingScreen />;

  return (
    <div className="shell">
      <SideMenu />
      <div className="shell-body">
        <TopBar />
        <main className="shell-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export function SignedInShell() {
  const { isSignedIn } = useLoaderData<typeof loadSignedInShell>();
  const location = useLocation();
  const isStatus401 = useStatus401();
  if (!isSignedIn) {
    const loginHref = isStatus401 ? createLoginHref('expired') : paths.login;
    return <Navigate to={loginHref} replace state={createReturnToState(location)} />;
  }
  return <SignedInLayout />;
}
