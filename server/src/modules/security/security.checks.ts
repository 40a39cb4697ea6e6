// Every check, in the order the checks list shows them.
import { defenderKeyVaultCheck } from './checks/defender-key-vault.check';
import { defenderServersCheck } from './checks/defender-servers.check';
import { defenderSqlCheck } from './checks/defender-sql.check';
import { defenderStorageCheck } from './checks/defender-storage.check';
import { diskCustomerKeyCheck } from './checks/disk-customer-key.check';
import { diskUnattachedCustomerKeyCheck } from './checks/disk-unattached-customer-key.check';
import { iamCustomOwnerRoleCheck } from './checks/iam-custom-owner-role.check';
import { keyVaultRecoverableCheck } from './checks/key-vault-recoverable.check';
import { monitorDiagnosticSettingCheck } from './checks/monitor-diagnostic-setting.check';
import { networkHttpInternetCheck } from './checks/network-http-internet.check';
import { networkRdpInternetCheck } from './checks/network-rdp-internet.check';
import { networkSshInternetCheck } from './checks/network-ssh-internet.check';
import { networkUdpInternetCheck } from './checks/network-udp-internet.check';
import { networkWatcherEnabledCheck } from './checks/network-watcher-enabled.check';
import { sqlAuditingCheck } from './checks/sql-auditing.check';
import { sqlTransparentEncryptionCheck } from './checks/sql-transparent-encryption.check';
import { sqlUnrestrictedInboundCheck } from './checks/sql-unrestricted-inbound.check';
import { storageBlobPublicAccessCheck } from './checks/storage-blob-public-access.check';
import { storageDefaultNetworkDenyCheck } from './checks/storage-default-network-deny.check';
import { storageKeysRotatedCheck } from './checks/storage-keys-rotated.check';
import { storageMinimumTlsCheck } from './checks/storage-minimum-tls.check';
import { storageSecureTransferCheck } from './checks/storage-secure-transfer.check';
import { vmManagedDisksCheck } from './checks/vm-managed-disks.check';
import { vmTrustedLaunchCheck } from './checks/vm-trusted-launch.check';
import type { CheckFailure, SecurityCheck } from './security.check';
import type { SecurityInventory } from '../../cloud/security-inventory';

export const securityChecks: readonly SecurityCheck[] = [
  networkSshInternetCheck,
  networkRdpInternetCheck,
  networkUdpInternetCheck,
  networkHttpInternetCheck,
  networkWatcherEnabledCheck,
  storageSecureTransferCheck,
  storageBlobPublicAccessCheck,
  storageDefaultNetworkDenyCheck,
  storageMinimumTlsCheck,
  storageKeysRotatedCheck,
  sqlUnrestrictedInboundCheck,
  sqlAuditingCheck,
  sqlTransparentEncryptionCheck,
  keyVaultRecoverableCheck,
  vmManagedDisksCheck,
  diskCustomerKeyCheck,
  diskUnattachedCustomerKeyCheck,
  vmTrustedLaunchCheck,
  defenderServersCheck,
  defenderSqlCheck,
  defenderStorageCheck,
  defenderKeyVaultCheck,
  iamCustomOwnerRoleCheck,
  monitorDiagnosticSettingCheck,
];

export function findSecurityCheck(checkId: string): SecurityCheck | undefined {
  return securityChecks.find((check) => check.id === checkId);
}

export interface CheckResult extends CheckFailure {
  check: SecurityCheck;
}

/** Runs every check over one subscription's inventory. */
export function runSecurityChecks(inventory: SecurityInventory, now: Date): CheckResult[] {
  return securityChecks.flatMap((check) =>
    check.evaluate(inventory, now).map((failure) => ({ ...failure, check })),
  );
}
