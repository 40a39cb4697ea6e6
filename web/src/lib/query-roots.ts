// The roots of the query keys one feature's call invalidates in another's cache: applying a
// recommendation refreshes the sizing schedule and the automation log. Features never import each
// other, so the roots live here and each feature's keys start from them.
export const scheduleQueryRoot = ['schedule'] as const;
export const automationLogQueryRoot = ['automation-log'] as const;
// A budget created or changed is evaluated at once, and may raise an alert in the top bar.
export const alertsQueryRoot = ['alerts'] as const;
