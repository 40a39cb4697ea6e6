import { formatTime } from '../arm/arm.views';
import type { EmulatorServices } from '../emulator.services';
import type { FleetResource } from '../fleet/fleet.model';
import { readQuery, sendArmError, sendJson, type RequestContext } from '../http/http.context';
import {
  findMetricNamespace,
  metricRetention,
  supportedTimeGrains,
  type MetricNamespace,
} from './metric.catalog';
import {
  describeMetricValues,
  formatDurationMinutes,
  MetricQueryError,
  parseAggregations,
  parseInterval,
  parseMetricNames,
  parseRange,
  parseTimespan,
  validateRange,
  type MetricQuery,
  type TimeRange,
} from './metric.query';

// Azure Monitor metrics: per-resource definitions and values through Resource Manager (errors as
// flat `{ code, message }` like the real API), and the regional getBatch API (errors wrapped
// in `{ error }`), which the server points at the emulator for every region.

const maximumBatchResources = 50;

/** The resource a Monitor path is about, when the path ends in providers/Microsoft.Insights/{operation}. */
export function readMonitorTarget(
  segments: readonly string[],
): { resourceId: string; operation: string } | undefined {
  const count = segments.length;
  if (count < 4) return undefined;
  if (segments[count - 3]?.toLowerCase() !== 'providers') return undefined;
  if (segments[count - 2]?.toLowerCase() !== 'microsoft.insights') return undefined;
  const operation = segments[count - 1]?.toLowerCase() ?? '';
  if (!['metrics', 'metricdefinitions', 'metricnamespaces'].includes(operation)) return undefined;
  return { resourceId: `/${segments.slice(0, -3).join('/')}`, operation };
}

function sendMonitorError(context: RequestContext, status: number, code: string, message: string): void {
  sendJson(context, status, { code, message });
}

function checkNamespace(requested: string | undefined, namespace: MetricNamespace): void {
  if (requested && requested.toLowerCase() !== namespace.namespace.toLowerCase()) {
    throw new MetricQueryError(
      `Metric namespace '${requested}' is not valid for this resource. Valid namespace: ${namespace.namespace}.`,
    );
  }
}

function describeDefinitions(resource: FleetResource, namespace: MetricNamespace) {
  return namespace.metrics.map((metric) => ({
    id: `${resource.id}/providers/microsoft.insights/metricdefinitions/${metric.name}`,
    resourceId: resource.id,
    namespace: namespace.namespace,
    name: { value: metric.name, localizedValue: metric.name },
    displayDescription: metric.description,
    category: metric.category,
    isDimensionRequired: false,
    unit: metric.unit,
    primaryAggregationType:
      metric.primaryAggregation.charAt(0).toUpperCase() + metric.primaryAggregation.slice(1),
    supportedAggregationTypes: ['None', 'Average', 'Minimum', 'Maximum', 'Total', 'Count'],
    metricAvailabilities: supportedTimeGrains.map((timeGrain) => ({ timeGrain, retention: metricRetention })),
    dimensions: [],
  }));
}

function buildQuery(
  range: TimeRange,
  intervalText: string | undefined,
  aggregationText: string | undefined,
  metricNamesText: string | undefined,
  namespace: MetricNamespace,
): MetricQuery {
  const intervalMinutes = parseInterval(intervalText, range);
  validateRange(range, intervalMinutes);
  return {
    range,
    intervalMinutes,
    isFullInterval: intervalText?.toUpperCase() === 'FULL',
    metricIndexes: parseMetricNames(metricNamesText, namespace),
    aggregations: parseAggregations(aggregationText),
  };
}

/** GET {resourceId}/providers/Microsoft.Insights/{metrics | metricDefinitions | metricNamespaces}. */
export function handleMonitorRequest(
  services: EmulatorServices,
  context: RequestContext,
  target: { resourceId: string; operation: string },
): void {
  if (context.method !== 'GET') {
    return sendMonitorError(
      context,
      405,
      'MethodNotAllowed',
      `The method '${context.method}' is not allowed here.`,
    );
  }
  const resource = services.fleet.findResource(target.resourceId);
  if (!resource) {
    return sendMonitorError(
      context,
      404,
      'ResourceNotFound',
      `The resource '${target.resourceId}' was not found.`,
    );
  }
  const namespace = findMetricNamespace(resource);
  if (target.operation === 'metricnamespaces') {
    return sendJson(context, 200, {
      value: namespace
        ? [
            {
              id: `${resource.id}/providers/microsoft.insights/metricNamespaces/${namespace.namespace}`,
              name: namespace.namespace,
              type: 'Microsoft.Insights/metricNamespaces',
              classification: 'Platform',
              properties: { metricNamespaceName: namespace.namespace },
            },
          ]
        : [],
    });
  }
  if (target.operation === 'metricdefinitions') {
    return sendJson(context, 200, { value: namespace ? describeDefinitions(resource, namespace) : [] });
  }
  if (!namespace) {
    return sendMonitorError(
      context,
      400,
      'BadRequest',
      `The resource type '${resource.type}' has no platform metrics.`,
    );
  }
  const nowMs = services.settings.readNow().getTime();
  try {
    checkNamespace(readQuery(context, 'metricnamespace'), namespace);
    const timespanText = readQuery(context, 'timespan');
    const range = parseTimespan(timespanText, nowMs);
    const query = buildQuery(
      range,
      readQuery(context, 'interval'),
      readQuery(context, 'aggregation'),
      readQuery(context, 'metricnames'),
      namespace,
    );
    const value = describeMetricValues(services.fleet, resource, namespace, query, nowMs);
    sendJson(context, 200, {
      cost: value.length * Math.ceil((range.endMs - range.startMs) / 60000),
      timespan: `${formatTime(range.startMs)}/${formatTime(range.endMs)}`,
      interval: formatDurationMinutes(query.intervalMinutes),
      value,
      namespace: namespace.namespace,
      resourceregion: resource.location,
    });
  } catch (error) {
    if (!(error instanceof MetricQueryError)) throw error;
    sendMonitorError(context, 400, 'BadRequest', error.message);
  }
}

function readResourceIds(context: RequestContext): string[] | undefined {
  try {
    const body = JSON.parse(context.rawBody || '{}') as { resourceids?: unknown };
    if (Array.isArray(body.resourceids) && body.resourceids.every((id) => typeof id === 'string')) {
      return body.resourceids as string[];
    }
  } catch {
    // Answered below.
  }
  return undefined;
}

/** POST /subscriptions/{subscriptionId}/metrics:getBatch, as MetricsClient.queryResources sends it. */
export function handleMetricsBatch(
  services: EmulatorServices,
  context: RequestContext,
  subscriptionId: string,
): void {
  const resourceIds = readResourceIds(context);
  if (!resourceIds || resourceIds.length === 0) {
    return sendArmError(
      context,
      400,
      'BadRequest',
      "The request body must hold a non-empty 'resourceids' array.",
    );
  }
  if (resourceIds.length > maximumBatchResources) {
    return sendArmError(
      context,
      400,
      'BadRequest',
      `A batch may query at most ${maximumBatchResources} resources; this one has ${resourceIds.length}.`,
    );
  }
  const subscriptionPrefix = `/subscriptions/${subscriptionId.toLowerCase()}/`;
  const foreign = resourceIds.find(
    (id) => !`/${id.replace(/^\/+/, '')}`.toLowerCase().startsWith(subscriptionPrefix),
  );
  if (foreign) {
    return sendArmError(
      context,
      400,
      'BadRequest',
      `Resource '${foreign}' does not belong to subscription '${subscriptionId}'. All resources in a batch must share one subscription.`,
    );
  }
  const namespaceText = readQuery(context, 'metricnamespace');
  if (!namespaceText) {
    return sendArmError(context, 400, 'BadRequest', "The 'metricnamespace' query parameter is required.");
  }
  const resources = resourceIds.map((id) => ({ id, resource: services.fleet.findResource(id) }));
  const found = resources.flatMap((entry) => (entry.resource ? [entry.resource] : []));
  const firstFound = found[0];
  if (firstFound) {
    const mixed = found.find(
      (resource) => resource.location !== firstFound.location || resource.type !== firstFound.type,
    );
    if (mixed) {
      return sendArmError(
        context,
        400,
        'BadRequest',
        'All resources in a batch must share one region and one resource type.',
      );
    }
  }
  const nowMs = services.settings.readNow().getTime();
  try {
    const range = parseRange(readQuery(context, 'starttime'), readQuery(context, 'endtime'), nowMs);
    const values = resources.map(({ id, resource }) => {
      const namespace = resource ? findMetricNamespace(resource) : undefined;
      if (!resource || !namespace) {
        return {
          starttime: formatTime(range.startMs),
          endtime: formatTime(range.endMs),
          interval: readQuery(context, 'interval') ?? 'PT1M',
          namespace: namespaceText,
          resourceregion: resource?.location ?? '',
          resourceid: id,
          value: [],
          errorCode: resource ? 'BadRequest' : 'ResourceNotFound',
        };
      }
      checkNamespace(namespaceText, namespace);
      const query = buildQuery(
        range,
        readQuery(context, 'interval'),
        readQuery(context, 'aggregation'),
        readQuery(context, 'metricnames'),
        namespace,
      );
      return {
        starttime: formatTime(range.startMs),
        endtime: formatTime(range.endMs),
        interval: formatDurationMinutes(query.intervalMinutes),
        namespace: namespace.namespace,
        resourceregion: resource.location,
        resourceid: resource.id,
        value: describeMetricValues(services.fleet, resource, namespace, query, nowMs),
      };
    });
    sendJson(context, 200, { values });
  } catch (error) {
    if (!(error instanceof MetricQueryError)) throw error;
    sendArmError(context, 400, 'BadRequest', error.message);
  }
}
