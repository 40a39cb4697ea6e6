// Resource Manager's records of a VM and a disk as inventory lists them and the security checks read
// them (the fields they use, every one optional as ARM may leave it out), kept apart so the cloud
// provider's contract and the security inventory can both name them.
export interface ArmItem<Properties> {
  id?: string;
  name?: string;
  type?: string;
  location?: string;
  tags?: Record<string, string>;
  properties?: Properties;
}

export type VirtualMachineItem = ArmItem<{
  securityProfile?: {
    securityType?: string;
    uefiSettings?: { secureBootEnabled?: boolean; vTpmEnabled?: boolean };
  };
  storageProfile?: {
    osDisk?: { name?: string; vhd?: { uri?: string }; managedDisk?: { id?: string } };
  };
}>;

export type DiskItem = ArmItem<{
  diskState?: string;
  encryption?: { type?: string; diskEncryptionSetId?: string };
}> & { managedBy?: string };
