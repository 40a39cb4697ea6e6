import type { EmulatorServices } from '../emulator.services';
import { countWrite } from '../emulator.stats';
import type { PublicIpAddressRecord } from '../fleet/fleet.model';
import { sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { RouteParameters, Router } from '../http/http.router';
import { sendPage } from './arm.paging';
import { describePublicIpAddress } from './arm.views';
import { sendAccepted } from './operation.routes';
import {
  findResourceOnPath,
  listResourcesOfType,
  requireResourceGroup,
  sendResourceNotFound,
} from './resource-manager.routes';

const publicIpType = 'Microsoft.Network/publicIPAddresses';
const groupPath = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}';

/** Public IP addresses: list, GET, and DELETE as a long-running operation, refused while associated. */
export function registerNetworkRoutes(router: Router, services: EmulatorServices): void {
  const { fleet, settings } = services;
  const describe = (address: PublicIpAddressRecord) => describePublicIpAddress(fleet, address);

  function findAddress(parameters: RouteParameters): PublicIpAddressRecord | undefined {
    return findResourceOnPath<PublicIpAddressRecord>(
      fleet,
      parameters,
      publicIpType,
      `${publicIpType}/${parameters.name ?? ''}`,
    );
  }

  function deleteAddress(context: RequestContext, parameters: RouteParameters): void {
    if (!requireResourceGroup(fleet, context, parameters)) return;
    const address = findAddress(parameters);
    if (!address) return sendJson(context, 204, undefined);
    if (address.ipConfigurationId) {
      return sendArmError(
        context,
        400,
        'PublicIPAddressInUse',
        `Public IP address ${address.id} can not be deleted since it is still allocated to resource ${address.ipConfigurationId}. In order to delete the public IP, disassociate/detach the Public IP address from the resource.  To learn how to do this, see aka.ms/deletepublicip.`,
      );
    }
    fleet.deleteResource(address.id, settings.readNow().getTime());
    countWrite(services.stats, address.id);
    sendAccepted(
      context,
      services,
      services.operations.create(address.subscriptionId, address.location),
      'Microsoft.Network',
    );
  }

  router
    .add('GET', `/subscriptions/{subscriptionId}/providers/${publicIpType}`, (context, parameters) => {
      sendPage(
        context,
        listResourcesOfType<PublicIpAddressRecord>(fleet, parameters.subscriptionId ?? '', publicIpType),
        describe,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${publicIpType}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      sendPage(
        context,
        listResourcesOfType<PublicIpAddressRecord>(
          fleet,
          parameters.subscriptionId ?? '',
          publicIpType,
          parameters.resourceGroupName,
        ),
        describe,
        settings.pageSize,
      );
    })
    .add('GET', `${groupPath}/providers/${publicIpType}/{name}`, (context, parameters) => {
      if (!requireResourceGroup(fleet, context, parameters)) return;
      const address = findAddress(parameters);
      if (!address) {
        return sendResourceNotFound(
          context,
          publicIpType,
          parameters.name ?? '',
          parameters.resourceGroupName ?? '',
        );
      }
      sendJson(context, 200, describe(address));
    })
    .add('DELETE', `${groupPath}/providers/${publicIpType}/{name}`, deleteAddress);
}
