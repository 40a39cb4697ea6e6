// Page size of the schedule, activity and cloud resource lists (SPEC §9).
export const pageSize = 30;
