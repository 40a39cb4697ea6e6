import type { LookupEntry } from './lookup-entry';

// SPEC §3, codes A to I. '11-25' and '25-50' overlap at 25 as SPEC writes them.
export const companySizes: readonly LookupEntry[] = [
  { code: 'A', description: '1' },
  { code: 'B', description: '2-5' },
  { code: 'C', description: '6-10' },
  { code: 'D', description: '11-25' },
  { code: 'E', description: '25-50' },
  { code: 'F', description: '51-100' },
  { code: 'G', description: '101-500' },
  { code: 'H', description: '501-1000' },
  { code: 'I', description: 'more than 1000' },
];
