// The emulator's units of time, and the 8,760-hour year Azure's price sheets quote a year in.
export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;
export const hoursPerYear = 8760;
