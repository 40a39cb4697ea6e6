// SPEC lets a client name one resource as the whole query string ('…?/subscriptions/…'), besides
// ?resourceId=. Shared by every route that lists one resource's entries.
import { resourceIdSchema } from '@cloudtrim/contracts/resources';
import { badRequest } from './http-errors';

// A query with '=' is read by the route's schema; undefined when there is no query at all.
export function readBareResourceId(url: string): string | undefined {
  const questionMark = url.indexOf('?');
  if (questionMark < 0) return undefined;
  const query = url.slice(questionMark + 1);
  if (query === '' || query.includes('=')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(query.replaceAll('+', ' '));
  } catch {
    throw badRequest('The resource id is not a valid query string.', 'resourceId');
  }
  const parsed = resourceIdSchema.safeParse(decoded);
  if (!parsed.success) throw badRequest('The resource id must be 1 to 1000 characters.', 'resourceId');
  return parsed.data;
}
