// The composition root, and the only one: every adapter, repository and service is built here, once,
// and shared by the HTTP routes (app.ts) and the background jobs (jobs/definitions.ts). Services
// receive what they use through their constructors; none builds its own collaborators.
import type { Logger } from 'pino';
import { createAzureGateway } from './cloud/azure/azure-gateway';
import type { Config, Secrets } from './config';
import type { Database } from './db/database';
import { createTransactionRunner } from './db/transaction';
import { PgBossCloudWorkQueue } from './queue/cloud-work';
import type { JobQueue } from './queue/queue';
import { describeFailure } from './lib/describe-failure';
import { JwtCodec } from './lib/jwt';
import { createLogger } from './lib/log';
import { SecretBox } from './lib/secret-box';
import { AccountRepository } from './modules/account/account.repository';
import { AccountService } from './modules/account/account.service';
import { ActiveHoursService } from './modules/active-hours/active-hours.service';
import { ActivityRepository } from './modules/activity/activity.repository';
import { ActivityService } from './modules/activity/activity.service';
import { AlertsRepository } from './modules/alerts/alerts.repository';
import { AlertsService } from './modules/alerts/alerts.service';
import { AuthRepository } from './modules/auth/auth.repository';
import { AuthService } from './modules/auth/auth.service';
import { BudgetsRepository } from './modules/budgets/budgets.repository';
import { BudgetsService } from './modules/budgets/budgets.service';
import { AutomationExecutor } from './modules/automation/automation.executor';
import { AutomationGuard } from './modules/automation/automation.guard';
import { AutomationRepository } from './modules/automation/automation.repository';
import type { PipelineChangeListener } from './modules/automation/automation.pipeline-hook';
import { AutomationService } from './modules/automation/automation.service';
import { createCaptchaProvider } from './modules/captcha/captcha-provider.factory';
import { CaptchaRepository } from './modules/captcha/captcha.repository';
import { CaptchaService } from './modules/captcha/captcha.service';
import { CostAnomaliesRepository } from './modules/costs/cost-anomalies.repository';
import { CostAnomaliesService } from './modules/costs/cost-anomalies.service';
import { CostsRepository } from './modules/costs/costs.repository';
import { CostsService } from './modules/costs/costs.service';
import { DemoService } from './modules/demo/demo.service';
import { InventoryRepository } from './modules/inventory/inventory.repository';
import { InventoryService } from './modules/inventory/inventory.service';
import { MailService } from './modules/mail/mail.service';
import { createMailTransport } from './modules/mail/mail.transport';
import { MetricsRepository } from './modules/metrics/metrics.repository';
import { MetricsService } from './modules/metrics/metrics.service';
import { PasswordRepository } from './modules/password/password.repository';
import { PasswordService } from './modules/password/password.service';
import { PipelinesService } from './modules/pipelines/pipelines.service';
import { PricingRepository } from './modules/pricing/pricing.repository';
import { PricingService } from './modules/pricing/pricing.service';
import { RecommendationsRepository } from './modules/recommendations/recommendations.repository';
import { RecommendationsService } from './modules/recommendations/recommendations.service';
import { ResourcesRepository } from './modules/resources/resources.repository';
import { ResourcesService } from './modules/resources/resources.service';
import { SecurityAlerts } from './modules/security/security.alerts';
import { SecurityRepository } from './modules/security/security.repository';
import { SecurityService } from './modules/security/security.service';
import { SignupRepository } from './modules/signup/signup.repository';
import { SignupService } from './modules/signup/signup.service';
import { TeamRepository } from './modules/team/team.repository';
import { TeamService } from './modules/team/team.service';
import { TenantsRepository } from './modules/tenants/tenants.repository';
import { TenantsService } from './modules/tenants/tenants.service';
import { ThrottleRepository } from './modules/throttle/throttle.repository';
import { ThrottleService } from './modules/throttle/throttle.service';
import { ScopeRepository } from './modules/scope/scope.repository';
import { ScopeService } from './modules/scope/scope.service';

export interface ContainerInput {
  config: Config;
  secrets: Secrets;
  database: Database;
  queue: JobQueue;
  now?: () => Date;
  log?: Logger;
}

export function createContainer({
  config,
  secrets,
  database,
  queue,
  now = () => new Date(),
  log = createLogger(config),
}: ContainerInput) {
  const { db } = database;
  const { publicUrl } = config;

  // Adapters: one of each for the whole process.
  const secretBox = new SecretBox(secrets.encryptionKey);
  const runTransaction = createTransactionRunner(database);
  const cloudProvider = createAzureGateway(config.azure);
  const work = new PgBossCloudWorkQueue(queue);

  // Accounts: users and teams, sessions, sign-up, passwords, mail.
  const repositories = { account: new AccountRepository(db), auth: new AuthRepository(db, database.url) };
  const throttle = new ThrottleService(new ThrottleRepository(db), now);
  const auth = new AuthService(
    repositories.account,
    repositories.auth,
    throttle,
    new JwtCodec(secrets.jwtSecret),
    config.sessionHours,
    now,
  );
  const mail = new MailService(
    queue,
    secretBox,
    createMailTransport({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom }, log),
  );
  const captcha = new CaptchaService(
    createCaptchaProvider(config.captcha, secrets.jwtSecret),
    new CaptchaRepository(db),
    now,
  );
  const signup = new SignupService(
    captcha,
    new SignupRepository(db),
    repositories.account,
    throttle,
    mail,
    publicUrl,
    now,
  );
  const password = new PasswordService(
    repositories.account,
    new PasswordRepository(db),
    auth,
    throttle,
    queue,
    mail,
    publicUrl,
    now,
  );
  const team = new TeamService(
    new TeamRepository(db),
    repositories.account,
    auth,
    throttle,
    mail,
    publicUrl,
    now,
  );

  // The cloud: tenants and what is read from and done in them.
  const activity = new ActivityService(new ActivityRepository(db));
  const alerts = new AlertsService(new AlertsRepository(db), runTransaction, mail, publicUrl, now);
  const tenants = new TenantsService(
    new TenantsRepository(db),
    cloudProvider,
    secretBox,
    work,
    activity,
    throttle,
    log,
  );
  const pricing = new PricingService(new PricingRepository(db), tenants, cloudProvider, now);
  const inventory = new InventoryService(
    tenants,
    new InventoryRepository(db),
    cloudProvider,
    activity,
    work,
    now,
  );
  const metrics = new MetricsService(tenants, new MetricsRepository(db), cloudProvider, activity, work, now);
  // Applying recommendations, the executor and the rollback guard share one way into transactions,
  // and every change to a VM is planned through the automation service (its one writer).
  const automationRepository = new AutomationRepository(db);
  // Pipelines act only through automation, which tells a run when a change it asked for ends unmade
  // (PipelinesService.recordSettledChange; called only once everything here is built).
  const onPipelineChangeSettled: PipelineChangeListener = (transaction, settlement) =>
    pipelines.recordSettledChange(transaction, settlement);
  const automationService = new AutomationService(
    automationRepository,
    runTransaction,
    queue,
    activity,
    tenants,
    cloudProvider,
    now,
    onPipelineChangeSettled,
  );
  const pipelines = new PipelinesService(
    db,
    runTransaction,
    automationService,
    mail,
    alerts,
    new RecommendationsRepository(db),
    publicUrl,
    now,
  );
  const automation = {
    service: automationService,
    executor: new AutomationExecutor(
      automationRepository,
      runTransaction,
      tenants,
      cloudProvider,
      activity,
      now,
      (error) => describeFailure(error, log),
      onPipelineChangeSettled,
    ),
    guard: new AutomationGuard(automationRepository, runTransaction, automationService, activity, now),
  };
  const recommendations = new RecommendationsService(
    new RecommendationsRepository(db),
    pricing,
    activity,
    work,
    automationService,
    now,
  );

  const costs = new CostsService(
    new CostsRepository(db),
    tenants,
    cloudProvider,
    activity,
    work,
    automationService,
    now,
  );

  return {
    config,
    database,
    queue,
    repositories,
    throttle,
    auth,
    account: new AccountService(repositories.account),
    demo: new DemoService(repositories.account),
    mail,
    captcha,
    signup,
    password,
    team,
    activity,
    alerts,
    tenants,
    inventory,
    metrics,
    resources: new ResourcesService(new ResourcesRepository(db), activity, automationService, now),
    pricing,
    recommendations,
    automation,
    activeHours: new ActiveHoursService(runTransaction, automationService, activity, now),
    costs,
    costAnomalies: new CostAnomaliesService(new CostAnomaliesRepository(db), automationService, alerts, now),
    budgets: new BudgetsService(
      new BudgetsRepository(db),
      runTransaction,
      costs,
      alerts,
      tenants,
      cloudProvider,
      log,
      now,
    ),
    pipelines,
    security: new SecurityService(
      new SecurityRepository(db),
      tenants,
      cloudProvider,
      new SecurityAlerts(alerts, publicUrl, now),
      now,
    ),
    scope: new ScopeService(new ScopeRepository(db)),
  };
}

export type Container = ReturnType<typeof createContainer>;
