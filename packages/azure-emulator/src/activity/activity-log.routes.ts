import { sendPage } from '../arm/arm.paging';
import type { EmulatorServices } from '../emulator.services';
import { readQuery, sendArmError, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';
import {
  ActivityFilterError,
  describeActivityEvent,
  listActivityEvents,
  parseActivityFilter,
} from './activity-log';

/**
 * The Activity Log's administrative events of a subscription (Monitor's api-version 2015-04-01),
 * paged by nextLink, filtered on eventTimestamp and resourceUri; Resource Manager's read throttle
 * counts each page as the dispatcher admits it.
 */
export function registerActivityLogRoutes(router: Router, services: EmulatorServices): void {
  router.add(
    'GET',
    '/subscriptions/{subscriptionId}/providers/Microsoft.Insights/eventtypes/management/values',
    (context: RequestContext, parameters) => {
      const subscription = services.fleet.findSubscription(parameters.subscriptionId ?? '');
      if (!subscription) return;
      let filter;
      try {
        filter = parseActivityFilter(readQuery(context, '$filter'), services.settings.readNow().getTime());
      } catch (error) {
        if (!(error instanceof ActivityFilterError)) throw error;
        return sendArmError(context, 400, 'BadRequest', error.message);
      }
      const events = listActivityEvents(services.fleet, subscription.subscriptionId, filter);
      sendPage(
        context,
        events,
        (event) => describeActivityEvent(event, subscription.tenantId, services.fleet.seed),
        services.settings.pageSize,
      );
    },
  );
}
