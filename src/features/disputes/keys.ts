/** Query keys of the disputes feature; every key starts with 'disputes' so one prefix invalidates them all. */
export const disputeKeys = {
  all: ['disputes'] as const,
  disputable: () => [...disputeKeys.all, 'disputable'] as const,
  mine: () => [...disputeKeys.all, 'mine'] as const,
  admin: () => [...disputeKeys.all, 'admin'] as const,
  evidence: (id: string) => [...disputeKeys.all, 'evidence', id] as const,
  stake: (id: string) => [...disputeKeys.all, 'stake', id] as const,
  publisher: () => [...disputeKeys.all, 'publisher'] as const,
  publisherOne: (id: string) => [...disputeKeys.publisher(), id] as const,
  readers: (id: string) => [...disputeKeys.all, 'readers', id] as const,
}
