import { failEach, type SecurityCheck } from '../security.check';

export const iamCustomOwnerRoleCheck: SecurityCheck = {
  id: 'iam-custom-owner-role',
  title: 'Custom role grants every action on a subscription (a custom Owner)',
  severity: 'high',
  reads: 'Microsoft.Authorization/roleDefinitions (CustomRole)',
  remediation: {
    text: 'Delete the custom role, or narrow its actions to what its holders need, and use the built-in Owner where it is meant.',
    command: 'az role definition delete --name <role name> --scope /subscriptions/<subscription>',
  },
  cis: '1.23',
  evaluate: (inventory) =>
    failEach(inventory.roleDefinitions, (role) => {
      const properties = role.properties ?? {};
      if ((properties.type ?? '').toLowerCase() !== 'customrole') return undefined;
      const grantsAll = (properties.permissions ?? []).some(
        (permission) =>
          (permission.actions ?? []).includes('*') && (permission.notActions ?? []).length === 0,
      );
      const scope = (properties.assignableScopes ?? []).find((text) =>
        /^\/(subscriptions\/[^/]+)?\/?$/i.test(text.trim()),
      );
      return grantsAll && scope !== undefined
        ? `Role '${properties.roleName ?? ''}' allows actions '*' with no notActions over ${scope}.`
        : undefined;
    }),
};
