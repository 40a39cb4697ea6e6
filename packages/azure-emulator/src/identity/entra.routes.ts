import { randomUUID } from 'node:crypto';
import type { EmulatorServices } from '../emulator.services';
import type { TenantRecord } from '../fleet/fleet.model';
import { readHeaderText, sendJson, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';

// Entra ID as MSAL sees it with `disableInstanceDiscovery`: per-tenant OpenID configuration and
// the client-credentials token endpoint (v2.0, and v1.0 for older clients).

function formatEntraTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

function sendEntraError(
  context: RequestContext,
  status: number,
  error: string,
  code: number,
  description: string,
): void {
  const traceId = randomUUID();
  const correlationId = readHeaderText(context.request.headers['client-request-id']) ?? randomUUID();
  const timestamp = formatEntraTimestamp(new Date());
  sendJson(context, status, {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `${context.origin}/error?code=${code}`,
  });
}

function sendTenantNotFound(context: RequestContext, tenant: string): void {
  sendEntraError(
    context,
    400,
    'invalid_tenant',
    90002,
    `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`,
  );
}

function describeOpenIdConfiguration(context: RequestContext, tenant: TenantRecord, version: 'v1' | 'v2') {
  const base = `${context.origin}/${tenant.tenantId}`;
  const isV2 = version === 'v2';
  return {
    token_endpoint: isV2 ? `${base}/oauth2/v2.0/token` : `${base}/oauth2/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: isV2 ? `${base}/discovery/v2.0/keys` : `${base}/discovery/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    issuer: isV2 ? `${base}/v2.0` : `${base}/`,
    request_uri_parameter_supported: false,
    userinfo_endpoint: `${context.origin}/oidc/userinfo`,
    authorization_endpoint: isV2 ? `${base}/oauth2/v2.0/authorize` : `${base}/oauth2/authorize`,
    device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: isV2 ? `${base}/oauth2/v2.0/logout` : `${base}/oauth2/logout`,
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nbf', 'tid', 'oid', 'appid'],
    kerberos_endpoint: `${base}/kerberos`,
    tenant_region_scope: 'NA',
    cloud_instance_name: 'microsoftonline.com',
    cloud_graph_host_name: 'graph.windows.net',
    msgraph_host: 'graph.microsoft.com',
    rbac_url: 'https://pas.windows.net',
  };
}

function readClientCredentials(
  context: RequestContext,
  form: URLSearchParams,
): { clientId?: string; secret?: string } {
  const authorization = readHeaderText(context.request.headers.authorization);
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator > 0) {
      return {
        clientId: decodeURIComponent(decoded.slice(0, separator)),
        secret: decodeURIComponent(decoded.slice(separator + 1)),
      };
    }
  }
  return { clientId: form.get('client_id') ?? undefined, secret: form.get('client_secret') ?? undefined };
}

function sendMissingParameter(context: RequestContext, name: string): void {
  sendEntraError(
    context,
    400,
    'invalid_request',
    900144,
    `The request body must contain the following parameter: '${name}'.`,
  );
}

function createTokenHandler(services: EmulatorServices, version: 'v1' | 'v2') {
  return (context: RequestContext, parameters: Readonly<Record<string, string>>): void => {
    const tenantName = parameters.tenant ?? '';
    const tenant = services.fleet.findTenant(tenantName);
    if (!tenant) return sendTenantNotFound(context, tenantName);
    const form = new URLSearchParams(context.rawBody);
    const grantType = form.get('grant_type');
    if (!grantType) return sendMissingParameter(context, 'grant_type');
    if (grantType !== 'client_credentials') {
      return sendEntraError(
        context,
        400,
        'unsupported_grant_type',
        70003,
        `The app requested an unsupported grant type '${grantType}'.`,
      );
    }
    const { clientId, secret } = readClientCredentials(context, form);
    if (!clientId) return sendMissingParameter(context, 'client_id');
    const principal = services.fleet.findPrincipal(tenant.tenantId, clientId);
    if (!principal) {
      return sendEntraError(
        context,
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${tenant.displayName}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
      );
    }
    if (!secret) {
      return sendEntraError(
        context,
        401,
        'invalid_client',
        7000218,
        "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
      );
    }
    if (secret !== principal.secret) {
      return sendEntraError(
        context,
        401,
        'invalid_client',
        7000215,
        `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${principal.applicationId}'.`,
      );
    }
    let audience: string;
    if (version === 'v2') {
      const scope = form.get('scope');
      if (!scope) return sendMissingParameter(context, 'scope');
      const resourceScope = scope.split(' ').find((entry) => entry.endsWith('/.default'));
      if (!resourceScope) {
        return sendEntraError(
          context,
          400,
          'invalid_scope',
          1002012,
          `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
        );
      }
      audience = resourceScope.slice(0, -'/.default'.length);
    } else {
      const resource = form.get('resource');
      if (!resource) return sendMissingParameter(context, 'resource');
      audience = resource;
    }
    const { accessToken, expiresIn } = services.tokens.issue(principal, audience, context.origin);
    const issuedAt = Math.floor(Date.now() / 1000);
    sendJson(
      context,
      200,
      version === 'v2'
        ? {
            token_type: 'Bearer',
            expires_in: expiresIn,
            ext_expires_in: expiresIn,
            access_token: accessToken,
          }
        : {
            token_type: 'Bearer',
            expires_in: String(expiresIn),
            ext_expires_in: String(expiresIn),
            expires_on: String(issuedAt + expiresIn),
            not_before: String(issuedAt),
            resource: audience,
            access_token: accessToken,
          },
      { 'cache-control': 'no-store, no-cache', pragma: 'no-cache' },
    );
  };
}

export function registerEntraRoutes(router: Router, services: EmulatorServices): void {
  const openIdHandler =
    (version: 'v1' | 'v2') => (context: RequestContext, parameters: Readonly<Record<string, string>>) => {
      const tenant = services.fleet.findTenant(parameters.tenant ?? '');
      if (!tenant) return sendTenantNotFound(context, parameters.tenant ?? '');
      sendJson(context, 200, describeOpenIdConfiguration(context, tenant, version));
    };
  const keysHandler = (context: RequestContext, parameters: Readonly<Record<string, string>>) => {
    if (!services.fleet.findTenant(parameters.tenant ?? ''))
      return sendTenantNotFound(context, parameters.tenant ?? '');
    // Tokens are signed with a symmetric key; no public key is published.
    sendJson(context, 200, { keys: [] });
  };
  router
    .add('GET', '/{tenant}/v2.0/.well-known/openid-configuration', openIdHandler('v2'))
    .add('GET', '/{tenant}/.well-known/openid-configuration', openIdHandler('v1'))
    .add('GET', '/{tenant}/discovery/v2.0/keys', keysHandler)
    .add('GET', '/{tenant}/discovery/keys', keysHandler)
    .add('POST', '/{tenant}/oauth2/v2.0/token', createTokenHandler(services, 'v2'))
    .add('POST', '/{tenant}/oauth2/token', createTokenHandler(services, 'v1'));
}

/** Whether a path belongs to Entra ID rather than Resource Manager. */
export function isEntraPath(segments: readonly string[]): boolean {
  const second = segments[1]?.toLowerCase();
  return (
    segments.length >= 2 &&
    segments[0]?.toLowerCase() !== 'subscriptions' &&
    (second === 'oauth2' || second === 'v2.0' || second === '.well-known' || second === 'discovery')
  );
}

export function isTokenPath(segments: readonly string[]): boolean {
  return segments[1]?.toLowerCase() === 'oauth2';
}
