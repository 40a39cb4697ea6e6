import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clearSession } from '../lib/session';
import { createReturnToState } from '../lib/return-to';
import { setStatus401, useStatus401 } from '../lib/status-401';
import { createLoginHref } from '../config/paths';

/** Reacts to the global Status401 state: ends the session and asks the user to log in again. */
export function SessionExpiryHandler() {
  const isStatus401 = useStatus401();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  const locationRef = useRef(location);
  locationRef.current = location;

  // Status401 stays set until the navigation has landed, so the top bar's name poll, which sees the
  // cleared session first, knows this log-out is already under way and does not send the user to
  // plain /login instead.
  useEffect(() => {
    if (!isStatus401) return;
    clearSession();
    queryClient.clear();
    const returnTo = createReturnToState(locationRef.current);
    void Promise.resolve(navigate(createLoginHref('expired'), { replace: true, state: returnTo })).finally(
      () => setStatus401(false),
    );
  }, [isStatus401, navigate, queryClient]);

  return null;
}
