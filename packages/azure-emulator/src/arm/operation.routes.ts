import type { EmulatorServices } from '../emulator.services';
import { readQuery, sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';
import type { AsyncOperation } from './operation.store';

/** Resource providers whose writes run as long-running operations, each with its status URL. */
export type OperationProvider = 'Microsoft.Compute' | 'Microsoft.Network' | 'Microsoft.Sql';

const defaultApiVersions: Readonly<Record<OperationProvider, string>> = {
  'Microsoft.Compute': '2025-04-01',
  'Microsoft.Network': '2024-05-01',
  'Microsoft.Sql': '2023-08-01',
};

/**
 * The Azure-AsyncOperation URL (status body) or, with `isMonitor`, the Location URL (202 while
 * running, then an empty 200), as Resource Manager's providers hand them out.
 */
export function buildOperationUrl(
  context: RequestContext,
  operation: AsyncOperation,
  provider: OperationProvider,
  isMonitor: boolean,
): string {
  const apiVersion = encodeURIComponent(readQuery(context, 'api-version') ?? defaultApiVersions[provider]);
  return `${context.origin}/subscriptions/${operation.subscriptionId}/providers/${provider}/locations/${operation.location}/operations/${operation.id}?${isMonitor ? 'monitor=true&' : ''}api-version=${apiVersion}`;
}

/** 202 Accepted with both polling URLs and Retry-After: a DELETE or an action under way. */
export function sendAccepted(
  context: RequestContext,
  services: EmulatorServices,
  operation: AsyncOperation,
  provider: OperationProvider,
): void {
  sendJson(context, 202, undefined, {
    'azure-asyncoperation': buildOperationUrl(context, operation, provider, false),
    location: buildOperationUrl(context, operation, provider, true),
    'retry-after': String(services.operations.readRetryAfterSeconds(operation)),
  });
}

/** The status URLs of each provider's long-running operations. */
export function registerOperationRoutes(router: Router, services: EmulatorServices): void {
  for (const provider of Object.keys(defaultApiVersions) as OperationProvider[]) {
    router.add(
      'GET',
      `/subscriptions/{subscriptionId}/providers/${provider}/locations/{location}/operations/{operationId}`,
      (context, parameters) => {
        const operation = services.operations.find(
          parameters.subscriptionId ?? '',
          parameters.operationId ?? '',
        );
        if (!operation) {
          return sendArmError(
            context,
            404,
            'NotFound',
            `The operation '${parameters.operationId ?? ''}' was not found.`,
          );
        }
        const status = services.operations.readStatus(operation);
        const isMonitor = readQuery(context, 'monitor')?.toLowerCase() === 'true';
        if (isMonitor) {
          if (status === 'InProgress') {
            return sendJson(context, 202, undefined, {
              location: buildOperationUrl(context, operation, provider, true),
              'retry-after': String(services.operations.readRetryAfterSeconds(operation)),
            });
          }
          return sendJson(context, 200, undefined);
        }
        const body = {
          startTime: new Date(operation.startedAtMs).toISOString(),
          ...(status !== 'InProgress' ? { endTime: new Date(operation.completesAtMs).toISOString() } : {}),
          status,
          name: operation.id,
          ...(status === 'Failed' && operation.error ? { error: operation.error } : {}),
        };
        sendJson(
          context,
          200,
          body,
          status === 'InProgress'
            ? { 'retry-after': String(services.operations.readRetryAfterSeconds(operation)) }
            : {},
        );
      },
    );
  }
}
