// Wires the cloud-facing services (tenants, inventory, metrics, resources, activity) for the
// composition root; the container spreads the result into its own.
import type { Config, Secrets } from '../config';
import type { Database } from '../db/database';
import { createTransactionRunner } from '../db/transaction';
import { PgBossCloudWorkQueue } from '../jobs/cloud-work';
import type { JobQueue } from '../jobs/queue';
import { SecretBox } from '../lib/secret-box';
import { ActivityRepository } from '../modules/activity/activity.repository';
import { ActiveHoursService } from '../modules/active-hours/active-hours.service';
import { ActivityService } from '../modules/activity/activity.service';
import { AutomationExecutor } from '../modules/automation/automation.executor';
import { AutomationGuard } from '../modules/automation/automation.guard';
import { AutomationService } from '../modules/automation/automation.service';
import { InventoryRepository } from '../modules/inventory/inventory.repository';
import { InventoryService } from '../modules/inventory/inventory.service';
import { MetricsRepository } from '../modules/metrics/metrics.repository';
import { MetricsService } from '../modules/metrics/metrics.service';
import { PricingRepository } from '../modules/pricing/pricing.repository';
import { PricingService } from '../modules/pricing/pricing.service';
import { RecommendationsRepository } from '../modules/recommendations/recommendations.repository';
import { RecommendationsService } from '../modules/recommendations/recommendations.service';
import { ResourcesRepository } from '../modules/resources/resources.repository';
import { ResourcesService } from '../modules/resources/resources.service';
import { TenantsRepository } from '../modules/tenants/tenants.repository';
import { TenantsService } from '../modules/tenants/tenants.service';
import { createAzureGateway } from './azure/azure-gateway';
import type { CloudProvider } from './cloud-provider';
import { ThrottleRepository } from '../modules/throttle/throttle.repository';
import { ThrottleService } from '../modules/throttle/throttle.service';

export interface CloudServicesInput {
  config: Config;
  secrets: Secrets;
  database: Database;
  queue: JobQueue;
  now: () => Date;
}

export function createCloudServices({ config, secrets, database, queue, now }: CloudServicesInput) {
  const cloudProvider = createAzureGateway(config.azure);
  const work = new PgBossCloudWorkQueue(queue);
  const activity = new ActivityService(new ActivityRepository(database.db));
  const tenants = new TenantsService(
    new TenantsRepository(database.db),
    cloudProvider,
    new SecretBox(secrets.encryptionKey),
    work,
    activity,
    new ThrottleService(new ThrottleRepository(database.db), now),
  );
  const pricing = new PricingService(new PricingRepository(database.db), tenants, cloudProvider, now);
  return {
    activity,
    tenants,
    inventory: new InventoryService(
      tenants,
      new InventoryRepository(database.db),
      cloudProvider,
      activity,
      work,
      now,
    ),
    metrics: new MetricsService(
      tenants,
      new MetricsRepository(database.db),
      cloudProvider,
      activity,
      work,
      now,
    ),
    resources: new ResourcesService(new ResourcesRepository(database.db), activity, now),
    pricing,
    recommendations: new RecommendationsService(
      new RecommendationsRepository(database.db),
      pricing,
      activity,
      work,
      now,
    ),
    automation: createAutomation({ database, queue, now }, tenants, cloudProvider, activity),
    activeHours: new ActiveHoursService(createTransactionRunner(database), queue, activity, now),
  };
}

// Applying recommendations, the executor and the rollback guard share one way into transactions.
function createAutomation(
  { database, queue, now }: Pick<CloudServicesInput, 'database' | 'queue' | 'now'>,
  tenants: TenantsService,
  cloudProvider: CloudProvider,
  activity: ActivityService,
) {
  const runTransaction = createTransactionRunner(database);
  return {
    service: new AutomationService(database.db, runTransaction, queue, activity, now),
    executor: new AutomationExecutor(database.db, runTransaction, tenants, cloudProvider, activity, now),
    guard: new AutomationGuard(database.db, runTransaction, queue, activity, now),
  };
}
