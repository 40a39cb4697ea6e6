// The server's units of time, its year, and the two ways it writes a time: said once here.
import { sql, type SQL } from 'drizzle-orm';

export const minuteMs = 60_000;
export const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;
export const weekMs = 7 * dayMs;

// A year of costs and savings: 365 days, so 8,760 hours. A weekly schedule's week counts 52.18
// times a year (about 365.25 / 7, as the pipelines' savings count it).
export const daysPerYear = 365;
export const hoursPerYear = daysPerYear * 24;
export const weeksPerYear = 52.18;

// A whole hour of the day as people read it: 7 → "07:00"; no hour set → "--:--".
export function formatHour(hour: number | null): string {
  return hour === null ? '--:--' : `${String(hour).padStart(2, '0')}:00`;
}

// A timestamptz read as the ISO text an API answers (what Date.toISOString writes), in SQL, so a
// row comes back with its time already in the contract's form.
export function isoTimestampSql(column: unknown): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
