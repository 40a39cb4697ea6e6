import type { LookupEntry } from './lookup-entry';

// SPEC §3, codes A to D.
export const revenues: readonly LookupEntry[] = [
  { code: 'A', description: 'under $100,000' },
  { code: 'B', description: '$100,000 to $999,999' },
  { code: 'C', description: '$1,000,000 to $4,999,999' },
  { code: 'D', description: 'over $5,000,000' },
];
