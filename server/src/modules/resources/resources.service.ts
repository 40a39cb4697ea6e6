import {
  automationLabels,
  formatMaintenanceWindow,
  automationValues,
  toAutomationValue,
} from '@cloudtrim/contracts/automation';
import { automationUpdatedText, resourceSavedText } from '@cloudtrim/contracts/messages';
import type {
  AutomationResource,
  FindResourcesResponse,
  SaveCloudResourceRequest,
  SaveCloudResourceResponse,
  UpdateResourceAutomation,
  UpdateResourceAutomationResponse,
} from '@cloudtrim/contracts/resources';
import { saveCloudResourceRequestSchema } from '@cloudtrim/contracts/resources';
import { isPredictionMethodId, predictionMethodShortTexts } from '@cloudtrim/rightsizing/prediction-methods';
import { createHash } from 'node:crypto';
import { BoundedMap } from '../../lib/bounded-map';
import { runWithConcurrency } from '../../lib/concurrency';
import { encodeBody, type ContentEncoding } from '../../lib/content-encoding';
import { FreshReads } from '../../lib/fresh-read';
import { notFound } from '../../lib/http-errors';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import { findNextWindowStart } from '../automation/automation.timing';
import type { ResourcesRepository, TenantResourcesVersion } from './resources.repository';

export const searchResultLimit = 50;
const cachedTeamLimit = 200;
const cachedTenantLimit = 1000;
const partBuildLimit = 2;

interface CachedList {
  version: string;
  tenants: TenantResourcesVersion[];
  etag: string;
  // Built once per version: a 10,000-row list is megabytes that need no re-encoding per request,
  // and each content encoding is compressed once, when a client first asks for it.
  bodies: Map<ContentEncoding, Promise<Buffer>>;
}

// One tenant's rows of the list (comma-separated JSON objects) and the version they were built at or
// after.
interface CachedPart {
  version: number;
  body: Promise<Buffer>;
}

// The list in the encoding asked for, or only its validator when the client's copy is current.
export type CloudResourcesAnswer =
  | { isModified: true; etag: string; encoding: ContentEncoding; body: Buffer }
  | { isModified: false; etag: string };

export class ResourcesService {
  // Per team: the Cloud Resources JSON and the inventory version it was built from. A version read
  // (one small indexed query) decides whether it is still current, so every process of a
  // scaled-out API stays correct without telling the others.
  private readonly cache = new BoundedMap<string, CachedList>(cachedTeamLimit);
  // Per tenant: its part of the list, so a change to one tenant (a sync, a setting) rebuilds that
  // tenant's rows alone and the team's list is its parts joined.
  private readonly parts = new BoundedMap<string, CachedPart>(cachedTenantLimit);
  // Concurrent calls for a team share a version read that began after each of them asked.
  private readonly versions = new FreshReads<TenantResourcesVersion[]>();

  constructor(
    private readonly resources: ResourcesRepository,
    private readonly activity: ActivityService,
    private readonly changes: Pick<AutomationService, 'followResourceSettings'>,
    private readonly now: () => Date,
  ) {}

  // `knownTag` is the client's If-None-Match: when it names the current version nothing is built.
  async readCloudResources(
    teamId: string,
    encoding: ContentEncoding,
    knownTag?: string,
  ): Promise<CloudResourcesAnswer> {
    const tenants = await this.versions.read(teamId, () => this.resources.readTeamTenantVersions(teamId));
    const version = tenants.map((tenant) => `${tenant.tenantId}:${tenant.version}`).join(',');
    let cached = this.cache.get(teamId);
    if (!cached || cached.version !== version) {
      cached = { version, tenants, etag: versionTag(teamId, version), bodies: new Map() };
      this.cache.remember(teamId, cached);
    }
    if (knownTag === cached.etag) return { isModified: false, etag: cached.etag };
    try {
      return {
        isModified: true,
        etag: cached.etag,
        encoding,
        body: await this.readBody(cached, encoding),
      };
    } catch (error) {
      if (this.cache.get(teamId) === cached) this.cache.delete(teamId);
      throw error;
    }
  }

  async saveCloudResource(
    teamId: string,
    request: SaveCloudResourceRequest,
  ): Promise<SaveCloudResourceResponse> {
    const [item] = saveCloudResourceRequestSchema.parse(request);
    const resource = await this.resources.findForTeam(teamId, item!.ResourceId);
    if (!resource) throw notFound('Resource not found.');
    // The list shows 'No Change' (2) as not automated; saving hours from it keeps 'No Change'.
    const { automated: on, recommend } = automationValues;
    const automated =
      item!.Automated === on ? on : resource.automated === on ? recommend : resource.automated;
    const at = this.now();
    await this.resources.updateSettings(
      resource,
      { automated, activeHoursStart: item!.ActiveHoursStart, activeHoursEnd: item!.ActiveHoursEnd },
      at,
    );
    if (automated !== resource.automated) {
      await this.changes.followResourceSettings({
        teamId,
        tenantId: resource.tenantId,
        resourceId: resource.id,
        automated,
        isWindowChanged: false,
        nextWindowStart: at,
      });
    }
    return { message: resourceSavedText };
  }

  // The automation modal's update: Automate (1), Recommend Only (0) or No Change (2), and the
  // maintenance hour; a window left out keeps the one the resource has.
  async updateAutomation(
    teamId: string,
    resourceArmId: string,
    update: UpdateResourceAutomation,
  ): Promise<UpdateResourceAutomationResponse> {
    const resource = await this.resources.findForTeam(teamId, resourceArmId);
    if (!resource) throw notFound('Resource not found.');
    const maintenanceWindow = update.maintenanceWindow ?? resource.maintenanceWindow;
    const effectiveWindow = maintenanceWindow ?? resource.defaultMaintenanceWindow;
    const previous = await this.resources.updateAutomation(resource, {
      automated: update.automated,
      maintenanceWindow,
    });
    if (!previous) throw notFound('Resource not found.');
    const changes = await this.changes.followResourceSettings({
      teamId,
      tenantId: resource.tenantId,
      resourceId: resource.id,
      automated: update.automated,
      isWindowChanged: previous.previousWindow !== maintenanceWindow,
      nextWindowStart: findNextWindowStart(this.now(), effectiveWindow),
    });
    // Planned changes dropped or moved are said, never silent.
    const effects = [
      changes.cancelledChanges > 0 ? `${changes.cancelledChanges} planned change(s) cancelled` : '',
      changes.movedChanges > 0 ? `${changes.movedChanges} planned change(s) moved to the new window` : '',
    ].filter(Boolean);
    await this.activity.record([
      {
        teamId,
        tenantId: resource.tenantId,
        serviceName: activityServiceNames.resources,
        resourceArmId: resource.armId,
        logText: [
          `${resource.name}: automation set to ${automationLabels[update.automated]}, maintenance window ${formatMaintenanceWindow(effectiveWindow)}`,
          ...effects,
        ].join('; '),
      },
    ]);
    return { message: automationUpdatedText };
  }

  async findResources(teamId: string, partialResource: string): Promise<FindResourcesResponse> {
    const rows = await this.resources.search(teamId, partialResource.trim(), searchResultLimit);
    return {
      Data: rows.map(
        (row): AutomationResource => ({
          ResourceName: row.name,
          ResourceCategory: row.category,
          SubCategory: row.subcategory,
          ResourceId: row.armId,
          Automated: toAutomationValue(row.automated),
          MaintenanceWindow: row.maintenanceWindow,
          PredictionMethod: row.predictionMethod,
          PredictionMethodFriendlyShortText: isPredictionMethodId(row.predictionMethod)
            ? predictionMethodShortTexts[row.predictionMethod]
            : row.predictionMethod,
          TenantId: row.tenantId,
          SubscriptionName: row.subscriptionName ?? '',
          ResourceGroup: row.resourceGroup,
        }),
      ),
    };
  }

  // Concurrent requests share one build of the JSON and one compression per encoding.
  private readBody(cached: CachedList, encoding: ContentEncoding): Promise<Buffer> {
    let body = cached.bodies.get(encoding);
    if (!body) {
      body =
        encoding === 'identity'
          ? this.joinParts(cached.tenants)
          : this.readBody(cached, 'identity').then((json) => encodeBody(json, encoding));
      cached.bodies.set(encoding, body);
    }
    return body;
  }

  // Parts are built two at a time: a first call for a team of many tenants leaves the rest of the
  // pool to other requests.
  private async joinParts(tenants: TenantResourcesVersion[]): Promise<Buffer> {
    const parts = new Array<Buffer>(tenants.length);
    await runWithConcurrency([...tenants.keys()], partBuildLimit, async (index) => {
      parts[index] = await this.readPart(tenants[index]!);
    });
    const chunks: Buffer[] = [listOpen];
    for (const part of parts) {
      if (part.length === 0) continue;
      if (chunks.length > 1) chunks.push(listComma);
      chunks.push(part);
    }
    chunks.push(listClose);
    return Buffer.concat(chunks);
  }

  // A part is kept with the version read before its build began, so it holds at least that version's
  // rows: a change committed meanwhile makes the next call's version differ and rebuild it.
  private readPart({ tenantId, version }: TenantResourcesVersion): Promise<Buffer> {
    const cached = this.parts.get(tenantId);
    if (cached?.version === version) {
      this.parts.remember(tenantId, cached);
      return cached.body;
    }
    const part: CachedPart = {
      version,
      body: this.resources.readTenantResourcesJson(tenantId).then((text) => Buffer.from(text)),
    };
    this.parts.remember(tenantId, part);
    part.body.catch(() => {
      if (this.parts.get(tenantId) === part) this.parts.delete(tenantId);
    });
    return part.body;
  }
}

const listOpen = Buffer.from('[');
const listComma = Buffer.from(',');
const listClose = Buffer.from(']');

function versionTag(teamId: string, version: string): string {
  return `W/"${createHash('sha256').update(`${teamId}\n${version}`).digest('base64url').slice(0, 27)}"`;
}
