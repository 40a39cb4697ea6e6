// The cloud-facing API (tenants, resources, metrics, activity log) as one plugin for buildApp.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Container } from '../container';
import { activityRoutes } from '../modules/activity/activity.routes';
import { automationRoutes } from '../modules/automation/automation.routes';
import { metricRoutes } from '../modules/metrics/metrics.routes';
import { recommendationRoutes } from '../modules/recommendations/recommendations.routes';
import { teamSettingsRoutes } from '../modules/recommendations/team-settings.routes';
import { resourceRoutes } from '../modules/resources/resources.routes';
import { tenantRoutes } from '../modules/tenants/tenants.routes';

export function cloudRoutes(container: Container): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(tenantRoutes(container.tenants));
    await app.register(resourceRoutes(container.resources));
    await app.register(metricRoutes(container.metrics));
    await app.register(activityRoutes(container.activity));
    await app.register(recommendationRoutes(container.recommendations));
    await app.register(teamSettingsRoutes(container.recommendations));
    await app.register(automationRoutes(container.automation.service));
  };
}
