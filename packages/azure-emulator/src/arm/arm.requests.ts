import { sendArmError, type RequestContext } from '../http/http.context';

// Reading the bodies of Resource Manager writes, shared by every provider's routes.

export function parseJsonBody(context: RequestContext): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(context.rawBody || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Reported below as Resource Manager reports unreadable bodies.
  }
  sendArmError(
    context,
    400,
    'InvalidRequestContent',
    'The request content was invalid and could not be deserialized.',
  );
  return undefined;
}

export function readRequestedTags(body: Record<string, unknown>): Record<string, string> | undefined {
  const tags = body.tags;
  if (!tags || typeof tags !== 'object') return undefined;
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key, String(value)]));
}
