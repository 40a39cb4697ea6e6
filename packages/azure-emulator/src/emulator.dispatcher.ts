import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  admitSubscriptionRequest,
  authenticateCaller,
  describeAction,
  readWeight,
  requireApiVersion,
} from './arm/arm.access';
import { registerActivityLogRoutes } from './activity/activity-log.routes';
import { registerAuthorizationRoutes } from './arm/authorization.routes';
import { registerComputeRoutes } from './arm/compute.routes';
import { registerDiskRoutes } from './arm/disk.routes';
import { registerNetworkRoutes } from './arm/network.routes';
import { registerOperationRoutes } from './arm/operation.routes';
import { registerResourceManagerRoutes } from './arm/resource-manager.routes';
import { registerSqlRoutes } from './arm/sql.routes';
import { registerTagsRoutes } from './arm/tags.routes';
import { registerWebRoutes } from './arm/web.routes';
import { admitCostRequest, readCostScope, registerCostRoutes } from './costs/cost.routes';
import type { EmulatorServices } from './emulator.services';
import type { CallKind } from './emulator.stats';
import type { PrincipalRecord } from './fleet/fleet.model';
import {
  BodyTooLargeError,
  createRequestContext,
  readRequestBody,
  sendArmError,
  sendJson,
  type RequestContext,
} from './http/http.context';
import { Router } from './http/http.router';
import { isEntraPath, isTokenPath, registerEntraRoutes } from './identity/entra.routes';
import { handleMetricsBatch, handleMonitorRequest, readMonitorTarget } from './monitor/monitor.routes';
import { registerPricesRoutes } from './prices/prices.routes';
import { registerSecurityRoutes } from './security/security.routes';

const faultCodes: Readonly<Record<number, string>> = {
  500: 'InternalServerError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

function classifyCall(context: RequestContext): CallKind {
  const { segments, method } = context;
  const first = segments[0]?.toLowerCase();
  if (first === 'api' && segments[1]?.toLowerCase() === 'retail') return 'prices';
  if (isEntraPath(segments)) return isTokenPath(segments) ? 'token' : 'discovery';
  if (segments[segments.length - 1]?.toLowerCase() === 'metrics:getbatch') return 'getBatch';
  if (readCostScope(segments)) return 'costs';
  if (readMonitorTarget(segments)) return 'metrics';
  return method === 'GET' || method === 'HEAD' ? 'arm-read' : 'arm-write';
}

function sendInjectedFault(context: RequestContext, kind: CallKind, status: number): void {
  const message = 'The service is temporarily unavailable; please retry (injected fault).';
  const headers: Record<string, string> = status === 503 ? { 'retry-after': '1' } : {};
  if (kind === 'prices')
    return sendJson(context, status, { Error: { Code: 'ServiceUnavailable', Message: message } }, headers);
  sendArmError(context, status, faultCodes[status] ?? 'ServiceUnavailable', message, headers);
}

const maxTrackedRetries = 50_000;

/** When each request told to wait (429, 503 with Retry-After) may come back, by client request id. */
class RetryAfterTracker {
  private readonly notBeforeMs = new Map<string, number>();

  /** True when this request repeats one told to wait, before its wait was over. */
  isEarly(clientRequestId: string | undefined): boolean {
    if (!clientRequestId) return false;
    const notBefore = this.notBeforeMs.get(clientRequestId);
    if (notBefore === undefined) return false;
    this.notBeforeMs.delete(clientRequestId);
    // Retry-After is in whole seconds; a little clock slack keeps an exact wait from counting.
    return Date.now() + 50 < notBefore;
  }

  remember(clientRequestId: string | undefined, status: number, retryAfter: string | undefined): void {
    if (!clientRequestId || (status !== 429 && status !== 503)) return;
    const seconds = Number(retryAfter);
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    if (this.notBeforeMs.size >= maxTrackedRetries) this.notBeforeMs.clear();
    this.notBeforeMs.set(clientRequestId, Date.now() + seconds * 1000);
  }
}

function readClientRequestId(context: RequestContext): string | undefined {
  const header = context.request.headers['x-ms-client-request-id'];
  return Array.isArray(header) ? header[0] : header;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Builds the one request handler of the emulator: Entra ID, Resource Manager, Monitor, prices. */
export function createRequestHandler(
  services: EmulatorServices,
): (request: IncomingMessage, response: ServerResponse) => void {
  const entraRouter = new Router();
  registerEntraRoutes(entraRouter, services);
  const pricesRouter = new Router();
  registerPricesRoutes(pricesRouter);
  const callers = new WeakMap<RequestContext, PrincipalRecord>();
  const retries = new RetryAfterTracker();
  const readCaller = (context: RequestContext): PrincipalRecord => {
    const caller = callers.get(context);
    if (!caller) throw new Error('Resource Manager routes run only after authentication.');
    return caller;
  };
  const armRouter = new Router();
  registerResourceManagerRoutes(armRouter, services, readCaller);
  registerComputeRoutes(armRouter, services);
  registerDiskRoutes(armRouter, services);
  registerNetworkRoutes(armRouter, services);
  registerOperationRoutes(armRouter, services);
  registerWebRoutes(armRouter, services);
  registerSqlRoutes(armRouter, services);
  registerTagsRoutes(armRouter, services);
  registerAuthorizationRoutes(armRouter, services, readCaller);
  registerSecurityRoutes(armRouter, services);
  registerActivityLogRoutes(armRouter, services);
  const costRouter = new Router();
  registerCostRoutes(costRouter, services, services.costs);

  async function dispatch(router: Router, context: RequestContext, onMissing: () => void): Promise<void> {
    const match = router.match(context.method, context.segments);
    if (match.kind === 'found') return match.handler(context, match.parameters);
    if (match.kind === 'wrongMethod') {
      return sendArmError(
        context,
        405,
        'MethodNotAllowed',
        `The method '${context.method}' is not supported on '${context.path}'.`,
      );
    }
    onMissing();
  }

  async function handleResourceManager(context: RequestContext, kind: CallKind): Promise<void> {
    const principal = authenticateCaller(services, context);
    if (!principal || !requireApiVersion(context)) return;
    callers.set(context, principal);
    const { segments } = context;
    const isUnderSubscription = segments[0]?.toLowerCase() === 'subscriptions' && segments.length >= 2;
    if (kind === 'getBatch') {
      const subscriptionId = segments[1] ?? '';
      if (segments.length !== 3 || context.method !== 'POST') {
        return sendArmError(context, 404, 'NotFound', `The path '${context.path}' is not served.`);
      }
      const isAdmitted = admitSubscriptionRequest(services, context, principal, subscriptionId, {
        weight: 'read',
        action: 'Microsoft.Insights/metrics/read',
        scope: `/subscriptions/${subscriptionId}`,
        isThrottled: false,
      });
      if (isAdmitted) handleMetricsBatch(services, context, subscriptionId);
      return;
    }
    const costScope = kind === 'costs' ? readCostScope(segments) : undefined;
    if (costScope) {
      // Cost Management has its own query budget (checked by its routes), not Resource Manager's.
      const isAdmitted =
        admitSubscriptionRequest(services, context, principal, costScope.subscriptionId, {
          weight: 'read',
          action: describeAction('GET', segments),
          scope: costScope.path,
          isThrottled: false,
        }) && admitCostRequest(services, context, principal, costScope);
      if (!isAdmitted) return;
      return dispatch(costRouter, context, () =>
        sendArmError(context, 404, 'ResourceNotFound', `The resource '${context.path}' was not found.`),
      );
    }
    const monitorTarget = readMonitorTarget(segments);
    if (monitorTarget) {
      const subscriptionId = segments[0]?.toLowerCase() === 'subscriptions' ? (segments[1] ?? '') : '';
      const isAdmitted = admitSubscriptionRequest(services, context, principal, subscriptionId, {
        weight: 'read',
        action: 'Microsoft.Insights/metrics/read',
        scope: monitorTarget.resourceId,
      });
      if (isAdmitted) handleMonitorRequest(services, context, monitorTarget);
      return;
    }
    if (isUnderSubscription) {
      const isAdmitted = admitSubscriptionRequest(services, context, principal, segments[1] ?? '', {
        weight: readWeight(context.method),
        action: describeAction(context.method, segments),
        scope: `/${segments.join('/')}`,
      });
      if (!isAdmitted) return;
    }
    await dispatch(armRouter, context, () =>
      sendArmError(context, 404, 'ResourceNotFound', `The resource '${context.path}' was not found.`),
    );
  }

  async function handle(context: RequestContext): Promise<void> {
    const kind = classifyCall(context);
    services.stats.calls[kind] += 1;
    const fault = services.faults.decide(kind);
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.errorStatus !== undefined) {
      services.stats.faultsInjected += 1;
      return sendInjectedFault(context, kind, fault.errorStatus);
    }
    if (context.method !== 'GET' && context.method !== 'HEAD') {
      try {
        await readRequestBody(context);
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        return sendArmError(context, 413, 'RequestEntityTooLarge', error.message);
      }
    }
    if (kind === 'prices') {
      return dispatch(pricesRouter, context, () =>
        sendJson(context, 404, { Error: { Code: 'NotFound', Message: 'Not found' } }),
      );
    }
    if (kind === 'token' || kind === 'discovery') {
      return dispatch(entraRouter, context, () =>
        sendJson(context, 404, {
          error: 'not_found',
          error_description: `The path '${context.path}' is not served.`,
        }),
      );
    }
    return handleResourceManager(context, kind);
  }

  return (request, response) => {
    let context: RequestContext;
    try {
      context = createRequestContext(request, response);
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { code: 'BadRequest', message: 'The request URL could not be read.' } }),
      );
      return;
    }
    const clientRequestId = readClientRequestId(context);
    if (retries.isEarly(clientRequestId)) services.stats.retriesBeforeRetryAfter += 1;
    response.once('finish', () => {
      const retryAfter = response.getHeader('retry-after');
      retries.remember(
        clientRequestId,
        response.statusCode,
        retryAfter === undefined ? undefined : String(retryAfter),
      );
    });
    handle(context).catch((error: unknown) => {
      console.error(`azure-emulator: request ${context.requestId} failed`, error);
      sendArmError(
        context,
        500,
        'InternalServerError',
        `The emulator failed to handle request ${context.requestId}.`,
      );
    });
  };
}
