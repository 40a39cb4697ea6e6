import { Outlet } from 'react-router';
import { ScrollToTop } from './scroll-to-top';
import { SessionExpiryHandler } from './session-expiry-handler';

export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <SessionExpiryHandler />
      <Outlet />
    </>
  );
}
