/** Links a publisher shares for a source; statuses' words and colours come from src/lib/vocabulary.ts. */
import { paths } from '@/config/paths'
import { isPublicSourceStatus } from '@/lib/vocabulary-catalog'

/** Only sources the directory shows publicly accept clicks that count (PRODUCT.md "Attribution"). */
export const isSourceLive = isPublicSourceStatus

export const magicLinkUrl = (origin: string, unifiedCode: string) => `${origin}${paths.earn(unifiedCode)}`
export const campaignLinkUrl = (origin: string, unifiedCode: string, campaignId: string) =>
  `${origin}/campaign/${encodeURIComponent(unifiedCode)}/${encodeURIComponent(campaignId)}`
