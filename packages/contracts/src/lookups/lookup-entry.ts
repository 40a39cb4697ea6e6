// One entry of a bundled lookup list. Forms show and send the description, not the code (SPEC §3).
export interface LookupEntry {
  readonly code: string;
  readonly description: string;
}

export function findLookupDescription(entries: readonly LookupEntry[], code: string): string | undefined {
  return entries.find((entry) => entry.code === code)?.description;
}
