/** How the publisher area shows a source's review status (same colours as the directory, SPEC §2). */
export type StatusVariant = 'green' | 'yellow' | 'red' | 'grey'

export function sourceStatusVariant(status: string): StatusVariant {
  if (['approved', 'verified', 'live'].includes(status)) return 'green'
  if (['pending', 'pending_review', 'under_review'].includes(status)) return 'yellow'
  if (['rejected', 'banned'].includes(status)) return 'red'
  return 'grey'
}

const LABELS: Record<string, string> = {
  approved: 'Approved',
  verified: 'Verified',
  live: 'Live',
  pending: 'Pending',
  pending_review: 'Waiting for review',
  under_review: 'Under review',
  rejected: 'Rejected',
  banned: 'Banned',
}

export const sourceStatusLabel = (status: string) => LABELS[status] ?? status

/** Only sources the directory shows publicly accept clicks that count (PRODUCT.md "Attribution"). */
export const isSourceLive = (status: string) => ['approved', 'verified', 'live'].includes(status)

export const magicLinkUrl = (origin: string, unifiedCode: string) => `${origin}/earn/${encodeURIComponent(unifiedCode)}`
export const campaignLinkUrl = (origin: string, unifiedCode: string, campaignId: string) =>
  `${origin}/campaign/${encodeURIComponent(unifiedCode)}/${encodeURIComponent(campaignId)}`
