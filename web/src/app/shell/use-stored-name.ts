import { useEffect, useState } from 'react';
import { isSessionActive, readName, readSession, wasSessionEndedHere } from '../../lib/session';
import { getStatus401, setStatus401 } from '../../lib/status-401';

const pollIntervalMs = 500;

/**
 * The first name for 'Hi, ', polled from storage every 500 ms (SPEC §4). A name gone from storage
 * (e.g. another tab logged out) logs this tab out; a token that expired in the meantime ends the
 * session like a 401 would.
 */
export function useStoredName(onNameGone: () => void): string {
  const [name, setName] = useState(() => readName() ?? '');

  useEffect(() => {
    const intervalId = window.setInterval(() => {
      const storedName = readName();
      if (!storedName) {
        // A 401 being handled has cleared the session and is on its way to /login?expired; a
        // log-out of this tab is on its way to where it sends.
        if (!getStatus401() && !wasSessionEndedHere()) onNameGone();
        return;
      }
      if (!isSessionActive(readSession())) {
        setStatus401(true);
        return;
      }
      setName(storedName);
    }, pollIntervalMs);
    return () => window.clearInterval(intervalId);
  }, [onNameGone]);

  return name;
}
