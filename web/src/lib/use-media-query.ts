import { useCallback, useSyncExternalStore } from 'react';

function readMatch(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(query).matches
    : false;
}

/** Whether a CSS media query matches now; re-renders when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
      const mediaQueryList = window.matchMedia(query);
      mediaQueryList.addEventListener('change', onChange);
      return () => mediaQueryList.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => readMatch(query),
    () => false,
  );
}

// SPEC §9's layout breakpoints.
export const resourceTableMediaQuery = '(min-width: 868px)';
export const tenantTableMediaQuery = '(min-width: 860px)';

// SPEC §2: the recommendation and automation log lists switch layout at 991px and 865px: every column
// above 991px, a condensed table down to 866px, cards below.
export const logListWideMediaQuery = '(min-width: 992px)';
export const logListTableMediaQuery = '(min-width: 866px)';

export type LogListLayout = 'wide' | 'condensed' | 'cards';

export function useLogListLayout(): LogListLayout {
  const isWide = useMediaQuery(logListWideMediaQuery);
  const isTable = useMediaQuery(logListTableMediaQuery);
  if (isWide) return 'wide';
  return isTable ? 'condensed' : 'cards';
}
