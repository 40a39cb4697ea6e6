// The page a signed-out user wanted, carried to /login in the route state as { returnTo }.
export interface ReturnToState {
  returnTo: string;
}

interface LocationLike {
  pathname: string;
  search: string;
  hash: string;
}

export function createReturnToState(location: LocationLike): ReturnToState {
  return { returnTo: `${location.pathname}${location.search}${location.hash}` };
}

function readStringField(value: object, field: string): string {
  const fieldValue: unknown = (value as Record<string, unknown>)[field];
  return typeof fieldValue === 'string' ? fieldValue : '';
}

function convertToHref(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  return ['pathname', 'search', 'hash'].map((field) => readStringField(value, field)).join('');
}

/** Reads returnTo (a path or a location) from a route state; only same-origin paths are accepted. */
export function readReturnTo(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('returnTo' in state)) return null;
  const href = convertToHref(state.returnTo);
  const isSameOriginPath = href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\');
  return isSameOriginPath ? href : null;
}
