import { useEffect } from 'react';
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

  useEffect(() => {
    if (!isStatus401) return;
    clearSession();
    queryClient.clear();
    setStatus401(false);
    void navigate(createLoginHref('expired'), { replace: true, state: createReturnToState(location) });
  }, [isStatus401, location, navigate, queryClient]);

  return null;
}
