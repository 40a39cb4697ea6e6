// Units of time and the year that costs and savings are counted in, said once for the server and
// the web app.
export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;
export const weekMs = 7 * dayMs;

// A year of costs and savings: 365 days, so 8,760 hours. A weekly schedule's week counts 52.18
// times a year (about 365.25 / 7, as the pipelines' savings count it).
export const daysPerYear = 365;
export const hoursPerYear = daysPerYear * 24;
export const weeksPerYear = 52.18;
