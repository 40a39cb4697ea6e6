import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/** Every screen opens at its top (SPEC §9); query-only changes such as paging keep the position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
