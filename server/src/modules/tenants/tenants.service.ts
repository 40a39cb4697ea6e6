import type { AddTenantRequest, Tenant } from '@cloudtrim/contracts/tenants';
import { addTenantRequestSchema, tenantOkStatus } from '@cloudtrim/contracts/tenants';
import { tenantAddedText, tenantExistsText, tenantNotAuthenticatedText } from '@cloudtrim/contracts/messages';
import type { CloudCredentials, CloudProvider, CloudSubscription } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../jobs/cloud-work';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import type { SecretBox } from '../../lib/secret-box';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { TenantRepository, TenantRow } from './tenant.repository';

export const tenantNoSubscriptionsText =
  'The service principal signed in but can read no subscription. Grant it the Reader role on at least one subscription and try again.';

export interface DemoTenantCredentials extends CloudCredentials {
  friendlyName: string;
}

export class TenantService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly cloud: CloudProvider,
    private readonly secretBox: SecretBox,
    private readonly work: CloudWorkQueue,
    private readonly activity: ActivityService,
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
      Status: row.status,
      Healthy: row.isHealthy ? 1 : 0,
      Active: row.isActive ? 1 : 0,
      LastSync: row.lastSyncAt?.toISOString() ?? null,
      ResourceCount: row.resourceCount,
    }));
  }

  // Nothing is stored until Entra ID has accepted the secret and the subscriptions are listed.
  async addTenant(teamId: string, input: AddTenantRequest): Promise<{ message: string }> {
    const request = addTenantRequestSchema.parse(input);
    if (await this.tenants.findByAzureTenant(teamId, request.TenantId)) throw conflict(tenantExistsText);
    const credentials: CloudCredentials = {
      tenantId: request.TenantId,
      applicationId: request.ApplicationId,
      secret: request.ServicePrincipalSecret,
    };
    const subscriptions = await this.listSubscriptionsOrRefuse(credentials);
    const created = await this.tenants.insert({
      teamId,
      friendlyName: request.FriendlyName,
      azureTenantId: request.TenantId,
      applicationId: request.ApplicationId,
      encryptedSecret: this.secretBox.encrypt(request.ServicePrincipalSecret),
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
    ]);
    // The first sync queues the 14-day metrics back-fill once it knows the resources.
    await this.work.enqueueInventorySync(created.id);
    return { message: tenantAddedText(request.FriendlyName) };
  }

  async deleteTenant(teamId: string, tenantId: string): Promise<{ message: string }> {
    const deleted = await this.tenants.deleteForTeam(teamId, tenantId);
    if (!deleted) throw notFound('Tenant not found.');
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
      secret: this.secretBox.decrypt(tenant.encryptedSecret),
    };
  }

  async findTenant(tenantId: string): Promise<TenantRow | undefined> {
    return this.tenants.findById(tenantId);
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

  async recordSyncFailure(tenantId: string, reason: string, at: Date): Promise<void> {
    await this.tenants.recordSyncResult(tenantId, {
      status: `Sync failed: ${reason}`.slice(0, 500),
      isHealthy: false,
      error: reason,
      at,
    });
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
