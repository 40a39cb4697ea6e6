// The server's units of time and its year (the contracts' own), and the two ways it writes a time.
import { sql, type SQL } from 'drizzle-orm';

export {
  dayMs,
  daysPerYear,
  hourMs,
  hoursPerYear,
  minuteMs,
  weekMs,
  weeksPerYear,
} from '@cloudtrim/contracts/time';

// A whole hour of the day as people read it: 7 → "07:00"; no hour set → "--:--".
export function formatHour(hour: number | null): string {
  return hour === null ? '--:--' : `${String(hour).padStart(2, '0')}:00`;
}

// A timestamptz read as the ISO text an API answers (what Date.toISOString writes), in SQL, so a
// row comes back with its time already in the contract's form.
export function isoTimestampSql(column: unknown): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
