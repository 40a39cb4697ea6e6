import type { EmulatorServices } from '../emulator.services';
import type { PrincipalRecord, SubscriptionRecord } from '../fleet/fleet.model';
import { readHeaderText, readQuery, sendArmError, type RequestContext } from '../http/http.context';
import type { RequestWeight } from '../throttle/throttle.policy';

// Authentication, authorization and throttling in the order Resource Manager applies them:
// token, then api-version, then the subscription and the caller's rights on it, then the
// caller's request budget.

function sendUnauthorized(context: RequestContext, code: string, message: string, description: string): void {
  sendArmError(context, 401, code, message, {
    'www-authenticate': `Bearer authorization_uri="${context.origin}/common", error="invalid_token", error_description="${description}"`,
  });
}

export function authenticateCaller(
  services: EmulatorServices,
  context: RequestContext,
): PrincipalRecord | undefined {
  const header = readHeaderText(context.request.headers.authorization);
  if (!header) {
    sendUnauthorized(
      context,
      'AuthenticationFailed',
      "Authentication failed. The 'Authorization' header is missing.",
      "The authentication failed because of missing 'Authorization' header.",
    );
    return undefined;
  }
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match?.[1]) {
    sendUnauthorized(
      context,
      'AuthenticationFailedInvalidHeader',
      "Authentication failed. The 'Authorization' header is provided in an invalid format.",
      'The authentication scheme is not supported.',
    );
    return undefined;
  }
  const check = services.tokens.check(match[1]);
  if (!check.isValid) {
    if (check.reason === 'expired') {
      sendUnauthorized(
        context,
        'ExpiredAuthenticationToken',
        `The access token expiry UTC time is earlier than current UTC time '${new Date().toISOString()}'.`,
        'The access token has expired.',
      );
    } else {
      sendUnauthorized(
        context,
        'InvalidAuthenticationToken',
        check.reason === 'signature'
          ? 'The access token has invalid signature.'
          : 'The access token is invalid.',
        'The access token is invalid.',
      );
    }
    return undefined;
  }
  const principal = services.fleet.findPrincipal(check.claims.tid, check.claims.appid);
  if (!principal) {
    sendUnauthorized(
      context,
      'InvalidAuthenticationToken',
      'The access token is invalid.',
      'The access token is invalid.',
    );
    return undefined;
  }
  return principal;
}

export function requireApiVersion(context: RequestContext): boolean {
  if (readQuery(context, 'api-version')) return true;
  sendArmError(
    context,
    400,
    'MissingApiVersionParameter',
    'The api-version query parameter (?api-version=) is required for all requests.',
  );
  return false;
}

function applyThrottle(
  services: EmulatorServices,
  context: RequestContext,
  principal: PrincipalRecord,
  scope: string,
  weight: RequestWeight,
  headerScope: 'subscription' | 'tenant',
): boolean {
  const decision = services.throttle.takeRequest(principal.objectId, scope, weight);
  const headerName = `x-ms-ratelimit-remaining-${headerScope}-${weight === 'read' ? 'reads' : 'writes'}`;
  context.extraHeaders[headerName] = String(decision.remaining);
  if (decision.isAllowed) return true;
  services.stats.throttled += 1;
  sendArmError(
    context,
    429,
    headerScope === 'subscription' ? 'SubscriptionRequestsThrottled' : 'TenantRequestsThrottled',
    `Number of '${weight}' requests for ${headerScope} '${scope}' actor '${principal.objectId}' exceeded. Please try again after '${decision.retryAfterSeconds}' seconds after additional tokens are available. Refer to https://aka.ms/arm-throttling for additional information.`,
    { 'retry-after': String(decision.retryAfterSeconds) },
  );
  return false;
}

/** Tenant-level reads (subscription list, tenant list) draw on a per-tenant budget. */
export function admitTenantRead(
  services: EmulatorServices,
  context: RequestContext,
  principal: PrincipalRecord,
): boolean {
  return applyThrottle(services, context, principal, principal.tenantId, 'read', 'tenant');
}

export function readWeight(method: string): RequestWeight {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * Checks the subscription exists, belongs to the caller's tenant and that the caller holds the
 * right, then takes a request from the caller's budget. Sends the error itself on refusal.
 */
export function admitSubscriptionRequest(
  services: EmulatorServices,
  context: RequestContext,
  principal: PrincipalRecord,
  subscriptionId: string,
  options: {
    readonly weight: RequestWeight;
    readonly action: string;
    readonly scope: string;
    readonly isThrottled?: boolean;
  },
): SubscriptionRecord | undefined {
  const subscription = services.fleet.findSubscription(subscriptionId);
  if (!subscription) {
    sendArmError(
      context,
      404,
      'SubscriptionNotFound',
      `The subscription '${subscriptionId}' could not be found.`,
    );
    return undefined;
  }
  if (subscription.tenantId !== principal.tenantId) {
    sendUnauthorized(
      context,
      'InvalidAuthenticationTokenTenant',
      `The access token is from the wrong issuer '${context.origin}/${principal.tenantId}/'. It must match the tenant '${context.origin}/${subscription.tenantId}/' associated with this subscription. Please use the authority (URL) '${context.origin}/${subscription.tenantId}' to get the token.`,
      'The access token is from the wrong issuer.',
    );
    return undefined;
  }
  const allowed = options.weight === 'read' ? principal.readSubscriptionIds : principal.writeSubscriptionIds;
  if (!allowed.includes(subscription.subscriptionId)) {
    sendArmError(
      context,
      403,
      'AuthorizationFailed',
      `The client '${principal.objectId}' with object id '${principal.objectId}' does not have authorization to perform action '${options.action}' over scope '${options.scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    );
    return undefined;
  }
  if (options.isThrottled === false) return subscription;
  return applyThrottle(
    services,
    context,
    principal,
    subscription.subscriptionId,
    options.weight,
    'subscription',
  )
    ? subscription
    : undefined;
}

/** The RBAC action a request needs, for the AuthorizationFailed message. */
export function describeAction(method: string, segments: readonly string[]): string {
  const lowered = segments.map((segment) => segment.toLowerCase());
  const providerIndex = lowered.lastIndexOf('providers');
  const verb = method === 'GET' ? 'read' : method === 'DELETE' ? 'delete' : 'write';
  if (providerIndex < 0 || providerIndex + 1 >= segments.length) {
    if (lowered.length <= 2) return `Microsoft.Resources/subscriptions/${verb}`;
    if (lowered[2] === 'resources') return 'Microsoft.Resources/subscriptions/resources/read';
    return `Microsoft.Resources/subscriptions/resourceGroups/${verb}`;
  }
  const namespace = segments[providerIndex + 1] ?? '';
  const rest = segments.slice(providerIndex + 2);
  const types = rest.filter((_, index) => index % 2 === 0);
  const isAction = method === 'POST' && rest.length % 2 === 1 && rest.length > 1;
  if (isAction) {
    const actionName = types.pop() ?? '';
    return `${namespace}/${types.join('/')}/${actionName}/action`;
  }
  return `${namespace}/${types.join('/')}/${verb}`;
}
