/**
 * Source statuses still waiting for an admin (SPEC §4's pending, pending_review, under_review): a link of such a
 * source starts working once it is approved, and says so, rather than "no longer works". No imports, so the
 * light `/earn` script can use it without the vocabulary's weight.
 */
export const SOURCE_REVIEW_STATUSES = ['pending', 'pending_review', 'under_review'] as const

export const isSourceAwaitingReview = (status: string | null | undefined) =>
  status != null && (SOURCE_REVIEW_STATUSES as readonly string[]).includes(status)

/** What a link of a source awaiting review says, wherever it is shown or followed. */
export const PENDING_SOURCE_LINK_TEXT = 'This link starts working once the source is approved'
