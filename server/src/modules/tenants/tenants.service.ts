import { randomUUID } from 'node:crypto';
import type { AddTenantRequest, Tenant } from '@cloudtrim/contracts/tenants';
import { addTenantRequestSchema, tenantOkStatus } from '@cloudtrim/contracts/tenants';
import { tenantAddedText, tenantExistsText, tenantNotAuthenticatedText } from '@cloudtrim/contracts/messages';
import type {
  CloudCallOptions,
  CloudCredentials,
  CloudProvider,
  CloudSubscription,
} from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../queue/cloud-work';
import { badRequest, conflict, forbidden, HttpError, notFound, tooManyRequests } from '../../lib/http-errors';
import type { SecretBox } from '../../lib/secret-box';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { ThrottleRule, ThrottleService } from '../throttle/throttle.service';
import type { TenantsRepository, TenantRow, TenantSummary } from './tenants.repository';

export const tenantNoSubscriptionsText =
  'The service principal signed in but can read no subscription. Grant it the Reader role on at least one subscription and try again.';

// The role that lets a principal resize, start and deallocate VMs, named wherever it is missing.
export const writeRoleName = 'Virtual Machine Contributor';

// The Status a tenant that syncs well but may change nothing shows in place of 'OK'.
export const tenantReadOnlyStatus = `Read only: grant the ${writeRoleName} role to apply recommendations`;

export const tenantReadOnlyText = `This tenant's service principal can only read. Grant it the ${writeRoleName} role on its subscriptions, then try again.`;

// The Status a tenant that syncs well but may not read its bill shows in place of 'OK'.
export const tenantNoCostsStatus = 'No costs: grant the Cost Management Reader role to see the bill';

function describeStatus(row: TenantSummary): string {
  if (row.status !== tenantOkStatus) return row.status;
  if (row.canWrite === false) return tenantReadOnlyStatus;
  return row.canReadCosts ? row.status : tenantNoCostsStatus;
}

// Each failed check of a service principal asks Entra ID about a secret: bounded, so a signed-in
// user cannot test stolen secrets through us. A check that succeeds is not counted.
export const tenantAddRules = {
  failedChecksPerUser: { limit: 10, windowSeconds: 60 * 60 },
  failedChecksPerTeam: { limit: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, ThrottleRule>;

export const tenantTooManyChecksText =
  'Too many tenant checks have failed. Please wait an hour, check the IDs and secret, and try again.';

export function tenantAddedReadOnlyText(alias: string): string {
  return `Tenant "${alias}" has been added, but its service principal can only read: recommendations will show, and applying them needs the ${writeRoleName} role on its subscriptions.`;
}

export interface DemoTenantCredentials extends CloudCredentials {
  friendlyName: string;
}

// Shown as the tenant's Status (after "Sync failed: ") and said once in Recent Activity when a job
// finds no secret it can open: only adding the tenant again, with its secret, mends it.
export const tenantSecretUnreadableText =
  'The service principal secret stored for this tenant is missing or cannot be read. Delete the tenant and add it again with its secret.';

// What a job that works on one tenant in Azure gets from openForWork.
export interface TenantWork {
  tenant: TenantRow;
  credentials: CloudCredentials;
}

export interface TenantWorkLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export class TenantsService {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly cloud: CloudProvider,
    private readonly secretBox: SecretBox,
    private readonly work: CloudWorkQueue,
    private readonly activity: ActivityService,
    private readonly throttle: ThrottleService,
    private readonly log: TenantWorkLog,
  ) {}

  async listTenants(teamId: string): Promise<Tenant[]> {
    const rows = await this.tenants.listForTeam(teamId);
    return rows.map((row) => ({
      Id: row.id,
      FriendlyName: row.friendlyName,
      Type: row.type,
      TenantId: row.azureTenantId,
      ApplicationId: row.applicationId,
      ServicePrincipalSecret: row.hasSecret ? 'Set' : 'None',
      Status: describeStatus(row),
      Healthy: row.isHealthy ? 1 : 0,
      Active: row.isActive ? 1 : 0,
      LastSync: row.lastSyncAt?.toISOString() ?? null,
      ResourceCount: row.resourceCount,
      CanWrite: row.canWrite === null ? null : row.canWrite ? 1 : 0,
    }));
  }

  // Nothing is stored until Entra ID has accepted the secret and the subscriptions are listed.
  // `userId` names who asks, for the per-user bound; the team's bound applies to every caller.
  async addTenant(teamId: string, input: AddTenantRequest, userId?: string): Promise<{ message: string }> {
    const request = addTenantRequestSchema.parse(input);
    if (await this.tenants.findByAzureTenant(teamId, request.TenantId)) throw conflict(tenantExistsText);
    const credentials: CloudCredentials = {
      tenantId: request.TenantId,
      applicationId: request.ApplicationId,
      secret: request.ServicePrincipalSecret,
    };
    const subscriptions = await this.checkBoundedly(teamId, userId, () =>
      this.listSubscriptionsOrRefuse(credentials),
    );
    const canWrite = await this.readWriteAccess(
      credentials,
      subscriptions.map((subscription) => subscription.subscriptionId),
    );
    const id = randomUUID();
    const created = await this.tenants.insert({
      id,
      teamId,
      friendlyName: request.FriendlyName,
      azureTenantId: request.TenantId,
      applicationId: request.ApplicationId,
      encryptedSecret: this.secretBox.encrypt(request.ServicePrincipalSecret, id),
      canWrite,
      subscriptions: subscriptions.map((subscription) => ({
        subscriptionId: subscription.subscriptionId,
        displayName: subscription.displayName,
        state: subscription.state,
      })),
    });
    if (!created) throw conflict(tenantExistsText);
    await this.activity.record([
      {
        teamId,
        tenantId: created.id,
        serviceName: activityServiceNames.tenants,
        resourceArmId: null,
        logText: `Tenant "${created.friendlyName}" added with ${subscriptions.length} subscription(s)`,
      },
      ...(canWrite === false ? [this.describeReadOnly(created)] : []),
    ]);
    // The first sync queues the 14-day metrics back-fill once it knows the resources.
    await this.work.enqueueInventorySync(created.id);
    return {
      message:
        canWrite === false
          ? tenantAddedReadOnlyText(request.FriendlyName)
          : tenantAddedText(request.FriendlyName),
    };
  }

  async deleteTenant(teamId: string, tenantId: string): Promise<{ message: string }> {
    const deleted = await this.tenants.deleteForTeam(teamId, tenantId);
    if (!deleted) throw notFound('Tenant not found.');
    this.forgetCredentials(deleted);
    await this.activity.record([
      {
        teamId,
        tenantId: null,
        serviceName: activityServiceNames.tenants,
        resourceArmId: null,
        logText: `Tenant "${deleted.friendlyName}" removed with its resources and metrics`,
      },
    ]);
    return { message: `Tenant "${deleted.friendlyName}" has been deleted.` };
  }

  // Idempotent: a team that already has this Azure tenant keeps it as it is.
  async connectDemoTenant(teamId: string, demo: DemoTenantCredentials): Promise<boolean> {
    if (await this.tenants.findByAzureTenant(teamId, demo.tenantId.toLowerCase())) return false;
    await this.addTenant(teamId, {
      Type: 'Azure',
      TenantId: demo.tenantId,
      ApplicationId: demo.applicationId,
      ServicePrincipalSecret: demo.secret,
      FriendlyName: demo.friendlyName,
    });
    return true;
  }

  // The credentials jobs sign in with; undefined when no secret is stored.
  readCredentials(tenant: TenantRow): CloudCredentials | undefined {
    if (!tenant.encryptedSecret) return undefined;
    return {
      tenantId: tenant.azureTenantId,
      applicationId: tenant.applicationId,
      secret: this.secretBox.decrypt(tenant.encryptedSecret, tenant.id),
    };
  }

  // The one rule for every job that works on one tenant in Azure (sync, collection, back-fill,
  // pricing, applying a change), so none of them decides it differently:
  // - a tenant that is gone (deleted after the job was queued) or inactive: nothing to do, the job
  //   ends without a retry;
  // - a secret that is missing or will not open (another key, a row copied from another tenant):
  //   retrying cannot help, so the job ends too, and the tenant shows it (unhealthy, its Status
  //   says what to do, Recent Activity says it once) rather than failing silently every few minutes.
  // Both are logged. `job` names the caller in the log.
  async openForWork(tenantId: string, job: string): Promise<TenantWork | undefined> {
    const tenant = await this.tenants.findById(tenantId);
    if (!tenant || !tenant.isActive) {
      if (tenant) this.forgetCredentials(tenant);
      this.log.info({ tenantId, job }, 'tenant gone or inactive: nothing to do');
      return undefined;
    }
    const credentials = this.openCredentials(tenant);
    if (!credentials) {
      this.log.warn({ tenantId, job }, 'tenant secret missing or unreadable: nothing can be done for it');
      await this.reportUnreadableSecret(tenant);
      return undefined;
    }
    return { tenant, credentials };
  }

  // Work on a tenant that is deleted while it runs fails on the foreign keys of its writes: that work
  // is simply over (undefined). Any other failure is the caller's.
  async runUnlessDeleted<Result>(
    tenantId: string,
    job: string,
    work: () => Promise<Result>,
  ): Promise<Result | undefined> {
    try {
      return await work();
    } catch (error) {
      if (await this.tenants.findById(tenantId)) throw error;
      this.log.info({ tenantId, job }, 'tenant deleted while its job ran: the work is over');
      return undefined;
    }
  }

  // Secrets stored before they were bound to their tenant are sealed again, bound, at start-up
  // (before any job reads them); answers how many.
  async bindStoredSecrets(): Promise<number> {
    const unbound = await this.tenants.listUnboundSecrets();
    for (const tenant of unbound) {
      const secret = this.secretBox.decrypt(tenant.encryptedSecret);
      await this.tenants.replaceSecret(
        tenant.id,
        tenant.encryptedSecret,
        this.secretBox.encrypt(secret, tenant.id),
      );
    }
    return unbound.length;
  }

  // For every call that changes a VM: a tenant known to only read answers 403 naming the role, before
  // anything is planned. Unknown (not checked yet) passes: Azure itself then refuses, and that is logged.
  async assertCanWrite(tenantId: string): Promise<void> {
    const tenant = await this.tenants.findById(tenantId);
    if (!tenant) throw notFound('Tenant not found.');
    if (tenant.canWrite === false) throw forbidden(tenantReadOnlyText);
  }

  // Each sync reads the principal's permissions again, so a role granted or taken away shows within
  // one sync; the change is said once in Recent Activity.
  async refreshWriteAccess(
    tenant: TenantRow,
    credentials: CloudCredentials,
    subscriptionIds: string[],
    options?: CloudCallOptions,
  ): Promise<boolean | null> {
    const canWrite = await this.readWriteAccess(credentials, subscriptionIds, options);
    if (canWrite === null) return tenant.canWrite;
    const hasChanged = await this.tenants.updateCanWrite(tenant.id, canWrite);
    if (hasChanged && (canWrite === false || tenant.canWrite === false)) {
      await this.activity.record([
        canWrite
          ? {
              teamId: tenant.teamId,
              tenantId: tenant.id,
              serviceName: activityServiceNames.tenants,
              resourceArmId: null,
              logText: `Tenant "${tenant.friendlyName}" may now change virtual machines (${writeRoleName})`,
            }
          : this.describeReadOnly(tenant),
      ]);
    }
    return canWrite;
  }

  async listActiveTenantIds(): Promise<string[]> {
    return this.tenants.listActiveIds();
  }

  async recordSyncSuccess(tenantId: string, at: Date): Promise<void> {
    await this.tenants.recordSyncResult(tenantId, {
      status: tenantOkStatus,
      isHealthy: true,
      error: null,
      at,
    });
  }

  async recordSyncFailure(tenantId: string, reason: string): Promise<void> {
    await this.tenants.recordSyncResult(tenantId, {
      status: syncFailedStatus(reason),
      isHealthy: false,
      error: reason,
    });
  }

  // False when a subscription lacks a VM write action (every subscription must allow them, so no
  // apply fails half-way through a tenant); null when Azure could not say (a sync asks again).
  private async readWriteAccess(
    credentials: CloudCredentials,
    subscriptionIds: string[],
    options?: CloudCallOptions,
  ): Promise<boolean | null> {
    for (const subscriptionId of subscriptionIds) {
      try {
        const access = await this.cloud.readWriteAccess(credentials, subscriptionId, options);
        if (!access.canWrite) return false;
      } catch (error) {
        if (isCloudError(error, 'authorization')) return false;
        if (isCloudError(error)) return null;
        throw error;
      }
    }
    return subscriptionIds.length > 0 ? true : null;
  }

  // A deleted or deactivated tenant's secret is not kept in this process's cloud clients. Another
  // process (the job thread among them) drops it once unused for an hour, or when a job of the
  // tenant finds it inactive.
  private forgetCredentials(tenant: Pick<TenantRow, 'azureTenantId' | 'applicationId'>): void {
    this.cloud.forgetCredentials({ tenantId: tenant.azureTenantId, applicationId: tenant.applicationId });
  }

  private openCredentials(tenant: TenantRow): CloudCredentials | undefined {
    try {
      return this.readCredentials(tenant);
    } catch {
      // AES-GCM refuses a ciphertext sealed with another key or bound to another tenant.
      return undefined;
    }
  }

  private async reportUnreadableSecret(tenant: TenantRow): Promise<void> {
    if (tenant.status === syncFailedStatus(tenantSecretUnreadableText)) return;
    await this.recordSyncFailure(tenant.id, tenantSecretUnreadableText);
    await this.activity.record([
      {
        teamId: tenant.teamId,
        tenantId: tenant.id,
        serviceName: activityServiceNames.tenants,
        resourceArmId: null,
        logText: `Tenant "${tenant.friendlyName}": ${tenantSecretUnreadableText}`,
      },
    ]);
  }

  private describeReadOnly(tenant: Pick<TenantRow, 'id' | 'teamId' | 'friendlyName'>) {
    return {
      teamId: tenant.teamId,
      tenantId: tenant.id,
      serviceName: activityServiceNames.tenants,
      resourceArmId: null,
      logText: `Tenant "${tenant.friendlyName}" can only read: grant its service principal the ${writeRoleName} role to apply recommendations`,
    };
  }

  // Counted before the check, so a parallel burst gets no more than the bound (see
  // ThrottleService.hit); a check that does not fail on the credentials takes its count back.
  private async checkBoundedly<T>(
    teamId: string,
    userId: string | undefined,
    check: () => Promise<T>,
  ): Promise<T> {
    const buckets: Array<[string, ThrottleRule]> = [
      [`tenant-check:team:${teamId}`, tenantAddRules.failedChecksPerTeam],
    ];
    if (userId) buckets.push([`tenant-check:user:${userId}`, tenantAddRules.failedChecksPerUser]);
    const isOver = await Promise.all(buckets.map(([key, rule]) => this.throttle.hit(key, rule)));
    if (isOver.includes(true)) throw tooManyRequests(tenantTooManyChecksText);
    const giveBack = () => Promise.all(buckets.map(([key, rule]) => this.throttle.giveBack(key, rule)));
    try {
      const result = await check();
      await giveBack();
      return result;
    } catch (error) {
      // Only Entra ID refusing the credentials (400) counts; Azure being unreachable does not.
      if (!(error instanceof HttpError && error.statusCode === 400)) await giveBack();
      throw error;
    }
  }

  private async listSubscriptionsOrRefuse(credentials: CloudCredentials): Promise<CloudSubscription[]> {
    let subscriptions: CloudSubscription[];
    try {
      subscriptions = await this.cloud.listSubscriptions(credentials);
    } catch (error) {
      if (isCloudError(error, 'authentication') || isCloudError(error, 'authorization')) {
        throw badRequest(tenantNotAuthenticatedText, 'ServicePrincipalSecret');
      }
      // The tenant id or application id names nothing Entra ID knows.
      if (isCloudError(error, 'notFound') || isCloudError(error, 'invalidRequest')) {
        throw badRequest(tenantNotAuthenticatedText, 'TenantId');
      }
      if (isCloudError(error))
        throw new HttpError(503, 'Azure could not be reached. Please try again later.');
      throw error;
    }
    if (subscriptions.length === 0) throw badRequest(tenantNoSubscriptionsText);
    return subscriptions;
  }
}

function syncFailedStatus(reason: string): string {
  return `Sync failed: ${reason}`.slice(0, 500);
}
