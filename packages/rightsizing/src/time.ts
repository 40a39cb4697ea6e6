// The engine's units of time and the year its savings are counted in (365 days, 8,760 hours, as
// the server counts them).
export const hourMs = 3_600_000;
export const dayMs = 24 * hourMs;
export const hoursPerYear = 8760;
