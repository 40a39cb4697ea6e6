import { isDiskSkuName } from '../catalog/platform.catalog';
import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import { recordSkuChange, type ManagedDiskRecord, type SnapshotRecord } from '../fleet/fleet.model';
import { hashText, hashToUnit, mixHash } from '../fleet/noise.hash';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from './arm.paging';
import { parseJsonBody, readRequestedTags } from './arm.requests';
import { describeDisk, describeSnapshot, readCurrentPowerState, readDiskUniqueId } from './arm.views';
import { buildOperationUrl, sendAccepted } from './operation.routes';
import {
  findResourceOnPath,
  listResourcesOfType,
  requireResourceGroup,
  requireResourceOnPath,
} from './resource-manager.routes';

const diskType = 'Microsoft.Compute/disks';
const snapshotType = 'Microsoft.Compute/snapshots';
const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';

function readSkuName(body: Record<string, unknown>): string | undefined {
  const sku = body.sku as { name?: unknown } | undefined;
  return typeof sku?.name === 'string' ? sku.name : undefined;
}

/**
 * Managed disks (list, GET, PATCH of `sku.name`, DELETE) and incremental snapshots (PUT, GET,
 * DELETE), writes as long-running operations, refused while a disk is attached as Azure refuses.
 */
export function registerDiskRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;
  // When each snapshot's copy completes (wall clock, as every operation): 'Creating' until then.
  const snapshotReadyAtMs = new WeakMap<SnapshotRecord, number>();

  function buildId(parameters: RouteParameters, type: string, name: string): string {
    return `/subscriptions/${parameters.subscriptionId ?? ''}/resourceGroups/${parameters.resourceGroupName ?? ''}/providers/${type}/${name}`;
  }

  /** The disk or snapshot the path names; undefined (and nothing sent) when it does not exist. */
  function findOne<Resource extends ManagedDiskRecord | SnapshotRecord>(
    parameters: RouteParameters,
    type: Resource['type'],
    name: string,
  ): Resource | undefined {
    return findResourceOnPath<Resource>(fleet, parameters, type, `${type}/${name}`);
  }

  function requireOne<Resource extends ManagedDiskRecord | SnapshotRecord>(
    context: RequestContext,
    parameters: RouteParameters,
    type: Resource['type'],
    name: string,
  ): Resource | undefined {
    return requireResourceOnPath<Resource>(fleet, context, parameters, type, `${type}/${name}`, name);
  }

  function updateDisk(context: RequestContext, parameters: RouteParameters): void {
    const disk = requireOne<ManagedDiskRecord>(context, parameters, diskType, parameters.diskName ?? '');
    if (!disk) return;
    const body = parseJsonBody(context);
    if (!body) return;
    const requestedSku = readSkuName(body);
    if (requestedSku !== undefined && !isDiskSkuName(requestedSku)) {
      return sendJson(context, 400, {
        error: {
          code: 'InvalidParameter',
          message: `The value '${requestedSku}' of parameter 'sku.name' is invalid. Allowed values are Premium_LRS, StandardSSD_LRS, Standard_LRS.`,
          target: 'sku.name',
        },
      });
    }
    const isSkuChange = requestedSku !== undefined && requestedSku !== disk.sku;
    // Azure changes a disk's type only while no running VM holds it: detached, or its VM deallocated.
    if (isSkuChange && disk.machine && readCurrentPowerState(disk.machine) !== 'deallocated') {
      return sendArmError(
        context,
        409,
        'OperationNotAllowed',
        `Cannot change the account type of disk '${disk.name}' while it is attached to running VM '${disk.machine.id}'. Deallocate the VM and retry.`,
      );
    }
    if (isSkuChange) {
      disk.sku = requestedSku;
      recordSkuChange(disk.skuHistory, requestedSku, settings.readNow().getTime());
    }
    const tags = readRequestedTags(body);
    if (tags) disk.tags = tags;
    countWrite(services.stats, disk.id);
    const operation = services.operations.create(disk.subscriptionId, disk.location);
    sendJson(context, 200, describeDisk(fleet, disk), {
      'azure-asyncoperation': buildOperationUrl(context, operation, 'Microsoft.Compute', false),
    });
  }

  function deleteDisk(context: RequestContext, parameters: RouteParameters): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const disk = findOne<ManagedDiskRecord>(parameters, diskType, parameters.diskName ?? '');
    // Deleting what is not there succeeds with 204, as Resource Manager answers.
    if (!disk) return sendJson(context, 204, undefined);
    if (disk.machine) {
      return sendArmError(
        context,
        409,
        'OperationNotAllowed',
        `Disk ${disk.name} is attached to VM ${disk.machine.id}.`,
      );
    }
    fleet.deleteResource(disk.id, settings.readNow().getTime());
    countWrite(services.stats, disk.id);
    sendAccepted(
      context,
      services,
      services.operations.create(disk.subscriptionId, disk.location),
      'Microsoft.Compute',
    );
  }

  function createSnapshot(context: RequestContext, parameters: RouteParameters): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const body = parseJsonBody(context);
    if (!body) return;
    const name = parameters.snapshotName ?? '';
    const existing = findOne<SnapshotRecord>(parameters, snapshotType, name);
    const properties = (body.properties ?? {}) as {
      creationData?: { createOption?: unknown; sourceResourceId?: unknown };
      incremental?: unknown;
    };
    const createOption = properties.creationData?.createOption;
    const sourceResourceId = properties.creationData?.sourceResourceId;
    if (!existing && (createOption !== 'Copy' || typeof sourceResourceId !== 'string')) {
      return sendJson(context, 400, {
        error: {
          code: 'InvalidParameter',
          message:
            "A snapshot is created with creationData.createOption 'Copy' and the creationData.sourceResourceId of a managed disk.",
          target: 'creationData',
        },
      });
    }
    let snapshot = existing;
    if (!snapshot) {
      const source = fleet.findResource(String(sourceResourceId));
      if (source?.type !== diskType) {
        return sendArmError(context, 404, 'NotFound', `Resource ${String(sourceResourceId)} not found.`);
      }
      const id = buildId(parameters, snapshotType, name);
      const group = fleet.findResourceGroup(
        parameters.subscriptionId ?? '',
        parameters.resourceGroupName ?? '',
      );
      const streamKey = mixHash(hashText(id.toLowerCase()));
      snapshot = {
        type: snapshotType,
        id,
        name,
        subscriptionId: group?.subscriptionId ?? source.subscriptionId,
        resourceGroupName: group?.name ?? source.resourceGroupName,
        location: typeof body.location === 'string' ? body.location.toLowerCase() : source.location,
        tags: readRequestedTags(body) ?? {},
        createdMs: settings.readNow().getTime(),
        streamKey,
        sourceResourceId: source.id,
        sourceUniqueId: readDiskUniqueId(fleet, source),
        sizeGiB: source.sizeGiB,
        // An incremental snapshot holds the blocks in use: a share of the disk, by the seed.
        usedGiB:
          properties.incremental === true
            ? Math.ceil(source.sizeGiB * (0.15 + 0.6 * hashToUnit(fleet.seedKey, source.streamKey, 0x5a)))
            : source.sizeGiB,
        osType: source.osType,
        isIncremental: properties.incremental === true,
        deletedMs: undefined,
      };
      fleet.addResource(snapshot);
      services.costs.recordCreatedResource(snapshot);
    } else {
      const tags = readRequestedTags(body);
      if (tags) snapshot.tags = tags;
    }
    countWrite(services.stats, snapshot.id);
    const operation = services.operations.create(snapshot.subscriptionId, snapshot.location);
    if (!existing) snapshotReadyAtMs.set(snapshot, operation.completesAtMs);
    sendJson(
      context,
      existing ? 200 : 201,
      describeSnapshot(fleet, snapshot, snapshotReadyAtMs.get(snapshot)),
      {
        'azure-asyncoperation': buildOperationUrl(context, operation, 'Microsoft.Compute', false),
        location: buildOperationUrl(context, operation, 'Microsoft.Compute', true),
      },
    );
  }

  function deleteSnapshot(context: RequestContext, parameters: RouteParameters): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const snapshot = findOne<SnapshotRecord>(parameters, snapshotType, parameters.snapshotName ?? '');
    if (!snapshot) return sendJson(context, 204, undefined);
    fleet.deleteResource(snapshot.id, settings.readNow().getTime());
    countWrite(services.stats, snapshot.id);
    sendAccepted(
      context,
      services,
      services.operations.create(snapshot.subscriptionId, snapshot.location),
      'Microsoft.Compute',
    );
  }

  const describeOneDisk = (disk: ManagedDiskRecord) => describeDisk(fleet, disk);
  const describeOneSnapshot = (snapshot: SnapshotRecord) =>
    describeSnapshot(fleet, snapshot, snapshotReadyAtMs.get(snapshot));

  router
    .add('GET', `/subscriptions/{subscriptionId}/providers/${diskType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<ManagedDiskRecord>(fleet, parameters.subscriptionId ?? '', diskType),
        describeOneDisk,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${diskType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<ManagedDiskRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          diskType,
          parameters.resourceGroupName,
        ),
        describeOneDisk,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${diskType}/{diskName}`, (context, parameters) => {
      const disk = requireOne<ManagedDiskRecord>(context, parameters, diskType, parameters.diskName ?? '');
      if (disk) sendJson(context, 200, describeOneDisk(disk));
    })
    .add('PATCH', `${groupPath}/providers/${diskType}/{diskName}`, updateDisk)
    .add('DELETE', `${groupPath}/providers/${diskType}/{diskName}`, deleteDisk)
    .add('GET', `/subscriptions/{subscriptionId}/providers/${snapshotType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<SnapshotRecord>(fleet, parameters.subscriptionId ?? '', snapshotType),
        describeOneSnapshot,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${snapshotType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<SnapshotRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          snapshotType,
          parameters.resourceGroupName,
        ),
        describeOneSnapshot,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${snapshotType}/{snapshotName}`, (context, parameters) => {
      const snapshot = requireOne<SnapshotRecord>(
        context,
        parameters,
        snapshotType,
        parameters.snapshotName ?? '',
      );
      if (snapshot) sendJson(context, 200, describeOneSnapshot(snapshot));
    })
    .add('PUT', `${groupPath}/providers/${snapshotType}/{snapshotName}`, createSnapshot)
    .add('DELETE', `${groupPath}/providers/${snapshotType}/{snapshotName}`, deleteSnapshot);
}
