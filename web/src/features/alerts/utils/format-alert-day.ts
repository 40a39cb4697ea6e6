// Written by hand, as /analysis writes days.

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The alert's day as the cost screens write days: "Nov 3, 2026". */
export function formatAlertDay(day: string): string {
  const [year, month, dayOfMonth] = day.slice(0, 10).split('-').map(Number);
  return `${monthNames[(month ?? 1) - 1]} ${dayOfMonth}, ${year}`;
}
