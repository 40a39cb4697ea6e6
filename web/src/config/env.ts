// The only place that reads import.meta.env. Every value has a default so a plain `vite build` works;
// the external menu links (What's New, Help) can be pointed elsewhere at build time. Checked by hand
// rather than with a zod schema: this module is in the first load of every page, and zod is not
// (the public area's budget, SPEC 110 KB gzip).
function readUrl(name: string, fallback: string): string {
  const value: unknown = import.meta.env[name] ?? fallback;
  if (typeof value !== 'string' || !URL.canParse(value)) throw new Error(`${name} must be a URL.`);
  return value;
}

function readText(name: string, fallback: string): string {
  const value: unknown = import.meta.env[name] ?? fallback;
  if (typeof value !== 'string') throw new Error(`${name} must be text.`);
  return value;
}

export const env = {
  apiBaseUrl: readText('VITE_API_BASE_URL', '').replace(/\/$/, ''),
  whatsNewUrl: readUrl('VITE_WHATS_NEW_URL', 'https://azure.microsoft.com/updates/'),
  helpUrl: readUrl('VITE_HELP_URL', 'https://learn.microsoft.com/azure/cost-management-billing/'),
} as const;
