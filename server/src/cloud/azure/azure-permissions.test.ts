import { describe, expect, it } from 'vitest';
import { findMissingActions, matchesAction, virtualMachineWriteActions } from './azure-permissions';

describe('matchesAction', () => {
  it("reads '*' as any text and ignores letter case, as Azure's RBAC does", () => {
    expect(matchesAction('*', 'Microsoft.Compute/virtualMachines/write')).toBe(true);
    expect(matchesAction('*/read', 'Microsoft.Compute/virtualMachines/read')).toBe(true);
    expect(matchesAction('*/read', 'Microsoft.Compute/virtualMachines/write')).toBe(false);
    expect(
      matchesAction('microsoft.compute/virtualmachines/*', 'Microsoft.Compute/virtualMachines/start/action'),
    ).toBe(true);
    // A dot in a pattern is a dot, not any character.
    expect(matchesAction('Microsoft.Compute/*', 'MicrosoftXCompute/virtualMachines/write')).toBe(false);
  });
});

describe('findMissingActions', () => {
  it('finds every VM write action missing for Reader alone', () => {
    expect(findMissingActions([{ actions: ['*/read'], notActions: [] }], virtualMachineWriteActions)).toEqual(
      virtualMachineWriteActions,
    );
  });

  it('finds none for Owner, Contributor or Virtual Machine Contributor', () => {
    const contributor = {
      actions: ['*'],
      notActions: ['Microsoft.Authorization/*/Delete', 'Microsoft.Authorization/*/Write'],
    };
    const virtualMachineContributor = { actions: ['Microsoft.Compute/virtualMachines/*'], notActions: [] };
    expect(findMissingActions([{ actions: ['*'] }], virtualMachineWriteActions)).toEqual([]);
    expect(findMissingActions([contributor], virtualMachineWriteActions)).toEqual([]);
    expect(
      findMissingActions([{ actions: ['*/read'] }, virtualMachineContributor], virtualMachineWriteActions),
    ).toEqual([]);
  });

  it("lets an assignment's notActions take back only what that assignment grants", () => {
    const noDeallocate = {
      actions: ['Microsoft.Compute/virtualMachines/*'],
      notActions: ['Microsoft.Compute/virtualMachines/deallocate/action'],
    };
    expect(findMissingActions([noDeallocate], virtualMachineWriteActions)).toEqual([
      'Microsoft.Compute/virtualMachines/deallocate/action',
    ]);
    expect(
      findMissingActions(
        [noDeallocate, { actions: ['Microsoft.Compute/virtualMachines/deallocate/action'] }],
        virtualMachineWriteActions,
      ),
    ).toEqual([]);
    expect(findMissingActions([], virtualMachineWriteActions)).toEqual(virtualMachineWriteActions);
  });
});
