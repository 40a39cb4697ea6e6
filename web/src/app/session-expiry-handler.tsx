import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clearSession } from '../lib/session';
import { createReturnToState } from '../lib/return-to';
import { useStatus401 } from '../lib/status-401';
import { createLoginHref } from '../config/paths';

/** Reacts to the global Status401 state: ends the session and asks the user to log in again. */
export function SessionExpiryHandler() {
  const isStatus401 = useStatus401();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  const locationRef = useRef(location);
  locationRef.current = location;

  // Status401 stays set until the next login (storeSession resets it), so whatever else notices the
  // cleared session meanwhile (the top bar's name poll, the shell's loader revalidating) sends the
  // user to /login?expired too, not to plain /login.
  useEffect(() => {
    if (!isStatus401) return;
    clearSession();
    queryClient.clear();
    void navigate(createLoginHref('expired'), {
      replace: true,
      state: createReturnToState(locationRef.current),
    });
  }, [isStatus401, navigate, queryClient]);

  return null;
}
