import {
  findVirtualMachineSize,
  isSizeOfferedInRegion,
  listSizesOfferedInRegion,
  regions,
  virtualMachineSizes,
  type VirtualMachineSize,
} from '../catalog/sku.catalog';
import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import type { PowerState, VirtualMachineRecord } from '../fleet/fleet.model';
import { readQuery, sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { compileFilter, FilterSyntaxError } from '../http/odata.filter';
import { sendPage } from './arm.paging';
import { parseJsonBody, readRequestedTags } from './arm.requests';
import {
  describeInstanceView,
  describeResourceSku,
  describeVirtualMachine,
  describeVirtualMachineSize,
  readCurrentPowerState,
  readCurrentSize,
  readPendingOperation,
} from './arm.views';
import { buildOperationUrl, sendAccepted } from './operation.routes';
import type { AsyncOperation, OperationError } from './operation.store';
import { sendResourceGroupNotFound, sendResourceNotFound } from './resource-manager.routes';

const virtualMachineType = 'Microsoft.Compute/virtualMachines';
const machinePath =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Compute/virtualMachines/{vmName}';

type PowerAction = 'start' | 'deallocate' | 'powerOff' | 'restart';

const stateAfterAction: Readonly<Record<PowerAction, PowerState>> = {
  start: 'running',
  restart: 'running',
  deallocate: 'deallocated',
  powerOff: 'stopped',
};

function isInstanceViewRequested(context: RequestContext): boolean {
  return (readQuery(context, '$expand') ?? '').toLowerCase().includes('instanceview');
}

function readRequestedSize(body: Record<string, unknown>): string | undefined {
  const properties = body.properties as { hardwareProfile?: { vmSize?: unknown } } | undefined;
  const size = properties?.hardwareProfile?.vmSize;
  return typeof size === 'string' ? size : undefined;
}

/** Virtual machines, their power actions and resizes as long-running operations, and SKUs. */
export function registerComputeRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;

  function findMachine(
    context: RequestContext,
    parameters: RouteParameters,
  ): VirtualMachineRecord | undefined {
    const subscriptionId = parameters.subscriptionId ?? '';
    const groupName = parameters.resourceGroupName ?? '';
    if (!fleet.findResourceGroup(subscriptionId, groupName)) {
      sendResourceGroupNotFound(context, groupName);
      return undefined;
    }
    const machine = fleet.findVirtualMachine(
      `/subscriptions/${subscriptionId}/resourceGroups/${groupName}/providers/${virtualMachineType}/${parameters.vmName ?? ''}`,
    );
    if (!machine) sendResourceNotFound(context, virtualMachineType, parameters.vmName ?? '', groupName);
    return machine;
  }

  /** Compute's own per-VM update budget, on top of the subscription's write budget. */
  function admitMachineUpdate(context: RequestContext, machine: VirtualMachineRecord): boolean {
    const decision = services.throttle.takeVirtualMachineUpdate(machine.id.toLowerCase());
    context.extraHeaders['x-ms-ratelimit-remaining-resource'] =
      `Microsoft.Compute/UpdateVMPerVM;${decision.remaining}`;
    if (decision.isAllowed) return isIdle(context, machine);
    services.stats.throttled += 1;
    sendArmError(
      context,
      429,
      'TooManyRequests',
      `The request is being throttled as the limit has been reached for operation group 'Microsoft.Compute/UpdateVMPerVM' on '${machine.name}'. Please retry after '${decision.retryAfterSeconds}' seconds.`,
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
    return false;
  }

  /** Compute takes one operation on a VM at a time: another write meanwhile is refused (409 Conflict). */
  function isIdle(context: RequestContext, machine: VirtualMachineRecord): boolean {
    const pending = readPendingOperation(machine);
    if (!pending) return true;
    services.stats.conflicts += 1;
    sendArmError(
      context,
      409,
      'Conflict',
      `Operation '${context.method === 'POST' ? 'action' : 'update'}' is not allowed on VM '${machine.name}' since the VM is currently in use by another operation ('${pending.kind}'). Retry after it completes.`,
    );
    return false;
  }

  function startOperation(
    machine: VirtualMachineRecord,
    kind: 'resize' | PowerAction,
    error?: OperationError,
  ): AsyncOperation {
    const operation = services.operations.create(machine.subscriptionId, machine.location, error);
    machine.pendingOperation = { kind, completesAtMs: operation.completesAtMs };
    return operation;
  }

  function listMachines(context: RequestContext, machines: readonly VirtualMachineRecord[]): void {
    const isStatusIncluded =
      readQuery(context, 'statusOnly')?.toLowerCase() === 'true' || isInstanceViewRequested(context);
    sendPage(
      context,
      machines,
      (machine) => describeVirtualMachine(fleet, machine, { isInstanceViewIncluded: isStatusIncluded }),
      settings.pageSize,
    );
  }

  function listSubscriptionMachines(subscriptionId: string): VirtualMachineRecord[] {
    return fleet
      .listResources(subscriptionId)
      .filter((resource): resource is VirtualMachineRecord => resource.type === virtualMachineType);
  }

  function updateMachine(context: RequestContext, parameters: RouteParameters): void {
    const machine = findMachine(context, parameters);
    if (!machine) return;
    const body = parseJsonBody(context);
    if (!body) return;
    if (!admitMachineUpdate(context, machine)) return;
    const requestedSize = readRequestedSize(body);
    if (requestedSize !== undefined) {
      const size = findVirtualMachineSize(requestedSize);
      if (!size) {
        return sendJson(context, 400, {
          error: {
            code: 'InvalidParameter',
            message: `The value ${requestedSize} provided for the VM size is not valid. The valid sizes in the current region are: ${listSizesOfferedInRegion(
              machine.location,
            )
              .map((offered) => offered.name)
              .join(',')}.`,
            target: 'vmSize',
          },
        });
      }
      if (!isSizeOfferedInRegion(size.name, machine.location)) {
        return sendArmError(
          context,
          409,
          'SkuNotAvailable',
          `The requested size for resource '${machine.id}' is currently not available in location '${machine.location}' zones '' for subscription '${machine.subscriptionId}'. Please try another size or deploy to a different location or zones. See https://aka.ms/azureskunotavailable for details.`,
        );
      }
      const currentSize = readCurrentSize(machine);
      if (
        settings.isClusterBound &&
        size.family !== currentSize.family &&
        readCurrentPowerState(machine) === 'running'
      ) {
        const clusterSizes = listSizesOfferedInRegion(machine.location)
          .filter((offered) => offered.family === currentSize.family)
          .map((offered) => offered.name);
        return sendArmError(
          context,
          409,
          'OperationNotAllowed',
          `Unable to resize the VM '${machine.name}' because the requested size ${size.name} is not available in the current hardware cluster. The available sizes in this cluster are: ${clusterSizes.join(', ')}. Read more on VM resizing strategy at https://aka.ms/azure-resizevm.`,
        );
      }
      const quotaMessage = checkQuota(machine, currentSize, size);
      if (quotaMessage) return sendArmError(context, 409, 'QuotaExceeded', quotaMessage);
      if (size.name !== currentSize.name) {
        fleet.recordResize(machine, size, settings.readNow().getTime());
      }
    }
    const tags = readRequestedTags(body);
    if (tags) machine.tags = tags;
    countWrite(services.stats, machine.id);
    const operation = startOperation(machine, 'resize');
    sendJson(context, 200, describeVirtualMachine(fleet, machine), {
      'azure-asyncoperation': buildOperationUrl(context, operation, 'Microsoft.Compute', false),
    });
  }

  /** Azure's regional per-family vCPU quota: only a resize that adds vCPUs to a family can exceed it. */
  function checkQuota(
    machine: VirtualMachineRecord,
    currentSize: VirtualMachineSize,
    size: VirtualMachineSize,
  ): string | undefined {
    const quota = settings.vcpuQuotaPerFamily;
    if (quota === undefined) return undefined;
    const added = size.vcpus - (size.family === currentSize.family ? currentSize.vcpus : 0);
    if (added <= 0) return undefined;
    const used = listSubscriptionMachines(machine.subscriptionId)
      .filter((other) => other.location === machine.location)
      .map((other) => readCurrentSize(other))
      .filter((otherSize) => otherSize.family === size.family)
      .reduce((sum, otherSize) => sum + otherSize.vcpus, 0);
    if (used + added <= quota) return undefined;
    return `Operation could not be completed as it results in exceeding approved ${size.family} Cores quota. Additional details - Deployment Model: Resource Manager, Location: ${machine.location}, Current Limit: ${quota}, Current Usage: ${used}, Additional Required: ${added}, (Minimum) New Limit Required: ${used + added}. Submit a request for Quota increase at https://aka.ms/ProdportalCRP/#blade/Microsoft_Azure_Capacity/UsageAndQuota.ReactView.`;
  }

  /** A deleted VM takes its OS disk (deleteOption Delete) and leaves its data disks unattached (Detach). */
  function releaseDisks(machine: VirtualMachineRecord): void {
    const nowMs = settings.readNow().getTime();
    for (const disk of fleet.managedDisks) {
      if (disk.machine !== machine || disk.deletedMs !== undefined) continue;
      if (disk.osType !== undefined) {
        fleet.deleteResource(disk.id, nowMs);
      } else {
        disk.machine = undefined;
        disk.lastOwnershipUpdateMs = nowMs;
      }
    }
  }

  function deleteMachine(context: RequestContext, parameters: RouteParameters): void {
    const machine = findMachine(context, parameters);
    if (!machine) return;
    fleet.deleteResource(machine.id);
    countWrite(services.stats, machine.id);
    releaseDisks(machine);
    const operation = services.operations.create(machine.subscriptionId, machine.location);
    sendAccepted(context, services, operation, 'Microsoft.Compute');
  }

  function runPowerAction(action: PowerAction) {
    return (context: RequestContext, parameters: RouteParameters): void => {
      const machine = findMachine(context, parameters);
      if (!machine) return;
      if (!admitMachineUpdate(context, machine)) return;
      const targetState = stateAfterAction[action];
      const size = readCurrentSize(machine);
      const isUnallocatable =
        (action === 'start' || action === 'restart') &&
        readCurrentPowerState(machine) !== 'running' &&
        settings.unallocatableSizes.has(size.name.toLowerCase());
      countWrite(services.stats, machine.id);
      if (!isUnallocatable && readCurrentPowerState(machine) !== targetState) {
        fleet.recordPowerState(machine, targetState, settings.readNow().getTime(), 'api');
      }
      const operation = startOperation(
        machine,
        action,
        isUnallocatable
          ? {
              code: 'AllocationFailed',
              message: `Allocation failed. We do not have sufficient capacity for the requested VM size ${size.name} in this region. Read more about improving likelihood of allocation success at http://aka.ms/allocation-guidance`,
            }
          : undefined,
      );
      sendAccepted(context, services, operation, 'Microsoft.Compute');
    };
  }

  router
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/providers/Microsoft.Compute/virtualMachines',
      (context, parameters) => {
        listMachines(context, listSubscriptionMachines(parameters.subscriptionId ?? ''));
      },
    )
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/providers/Microsoft.Compute/locations/{location}/virtualMachines',
      (context, parameters) => {
        const location = (parameters.location ?? '').toLowerCase();
        listMachines(
          context,
          listSubscriptionMachines(parameters.subscriptionId ?? '').filter(
            (machine) => machine.location === location,
          ),
        );
      },
    )
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Compute/virtualMachines',
      (context, parameters) => {
        const group = fleet.findResourceGroup(
          parameters.subscriptionId ?? '',
          parameters.resourceGroupName ?? '',
        );
        if (!group) return sendResourceGroupNotFound(context, parameters.resourceGroupName ?? '');
        const groupName = group.name.toLowerCase();
        listMachines(
          context,
          listSubscriptionMachines(group.subscriptionId).filter(
            (machine) => machine.resourceGroupName.toLowerCase() === groupName,
          ),
        );
      },
    )
    .add('GET', machinePath, (context, parameters) => {
      const machine = findMachine(context, parameters);
      if (machine) {
        sendJson(
          context,
          200,
          describeVirtualMachine(fleet, machine, {
            isInstanceViewIncluded: isInstanceViewRequested(context),
          }),
        );
      }
    })
    .add('PATCH', machinePath, updateMachine)
    .add('PUT', machinePath, updateMachine)
    .add('DELETE', machinePath, deleteMachine)
    .add('GET', `${machinePath}/instanceView`, (context, parameters) => {
      const machine = findMachine(context, parameters);
      if (machine) sendJson(context, 200, describeInstanceView(fleet, machine));
    })
    .add('GET', `${machinePath}/vmSizes`, (context, parameters) => {
      const machine = findMachine(context, parameters);
      if (machine) {
        sendJson(context, 200, {
          value: listSizesOfferedInRegion(machine.location).map(describeVirtualMachineSize),
        });
      }
    })
    .add('POST', `${machinePath}/start`, runPowerAction('start'))
    .add('POST', `${machinePath}/restart`, runPowerAction('restart'))
    .add('POST', `${machinePath}/deallocate`, runPowerAction('deallocate'))
    .add('POST', `${machinePath}/powerOff`, runPowerAction('powerOff'))
    .add(
      'GET',
      '/subscriptions/{subscriptionId}/providers/Microsoft.Compute/locations/{location}/vmSizes',
      (context, parameters) => {
        sendJson(context, 200, {
          value: listSizesOfferedInRegion((parameters.location ?? '').toLowerCase()).map(
            describeVirtualMachineSize,
          ),
        });
      },
    )
    .add('GET', '/subscriptions/{subscriptionId}/providers/Microsoft.Compute/skus', (context) => {
      const entries = virtualMachineSizes.flatMap((size) =>
        regions
          .filter((region) => isSizeOfferedInRegion(size.name, region.name))
          .map((region) => ({ size, location: region.name })),
      );
      const filterText = readQuery(context, '$filter');
      let selected = entries;
      if (filterText) {
        try {
          const predicate = compileFilter(
            filterText,
            (entry: (typeof entries)[number], field) =>
              field.toLowerCase() === 'location' ? entry.location : undefined,
            { isCaseSensitive: false },
          );
          selected = entries.filter(predicate);
        } catch (error) {
          if (!(error instanceof FilterSyntaxError)) throw error;
          return sendArmError(
            context,
            400,
            'InvalidFilterInQueryString',
            `Invalid $filter '${filterText}': ${error.message}`,
          );
        }
      }
      sendJson(context, 200, {
        value: selected.map((entry) => describeResourceSku(entry.size, entry.location)),
      });
    });
}
