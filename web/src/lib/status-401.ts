import { useSyncExternalStore } from 'react';

// The global Status401 state of SPEC §4: any signed-in call answered 401 sets it; the app layer
// reacts by ending the session and sending the user to /login?expired, then resets it.
let isStatus401 = false;
const listeners = new Set<() => void>();

export function setStatus401(value: boolean): void {
  if (isStatus401 === value) return;
  isStatus401 = value;
  for (const listener of listeners) listener();
}

export function getStatus401(): boolean {
  return isStatus401;
}

export function subscribeToStatus401(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useStatus401(): boolean {
  return useSyncExternalStore(subscribeToStatus401, getStatus401, getStatus401);
}
