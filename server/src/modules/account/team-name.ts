// The name a new team gets: the company's when the account names one, else its owner's.
export function nameTeamFor(owner: { firstName: string; lastName: string; company?: string | null }): string {
  return owner.company?.trim() || `${owner.firstName} ${owner.lastName}'s team`;
}
