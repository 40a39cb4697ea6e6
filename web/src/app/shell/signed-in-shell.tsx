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

  // SPEC §2: every screen but /home waits for the tenant list behind a full-page 'Loading'.
  if (tenants.isPending && pathname !== paths.home) return <LoadingScreen />;

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
