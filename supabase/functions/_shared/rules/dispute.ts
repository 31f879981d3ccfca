/**
 * The words of a dispute's two sides. How an advertiser describes a dispute (PRODUCT.md "Disputes"): 10 to 2,000
 * characters, so an admin has something to weigh; how the publisher answers it (below). Defined here once: the
 * open-dispute dialog and the answer form (src/features/disputes) check them; the database functions `open_dispute`
 * and `answer_dispute` are the checks that count, with the same bounds and words, pinned to these constants by
 * supabase/tests/rule-bounds.test.ts.
 *
 * Pure TypeScript with no imports but its siblings: Deno (the functions) and Vite (the SPA) both load it.
 */
import { numberText } from './numbers.ts'

export const MIN_DISPUTE_REASON_LENGTH = 10
export const MAX_DISPUTE_REASON_LENGTH = 2000

export const DISPUTE_REASON_MESSAGES = {
  tooShort: `Describe the problem in at least ${MIN_DISPUTE_REASON_LENGTH} characters`,
  tooLong: `Keep the description under ${numberText(MAX_DISPUTE_REASON_LENGTH)} characters`,
} as const

/** What is wrong with a dispute's description (checked trimmed, as the database does), or null. */
export function disputeReasonProblem(reason: string): string | null {
  const length = reason.trim().length
  if (length < MIN_DISPUTE_REASON_LENGTH) return DISPUTE_REASON_MESSAGES.tooShort
  if (length > MAX_DISPUTE_REASON_LENGTH) return DISPUTE_REASON_MESSAGES.tooLong
  return null
}

/**
 * The publisher's answer (PRODUCT "Fair to both sides"): within 72 hours of the opening, once, 20 to 4,000
 * characters and up to 5 evidence links (https addresses: the post, video or page the readers came from). The
 * answer form (src/features/disputes) checks it; `answer_dispute` checks it again in the same words, and the
 * deadline is the `disputes.answer_due_at` default, both pinned here by supabase/tests/rule-bounds.test.ts.
 */
export const DISPUTE_ANSWER_HOURS = 72
export const MIN_DISPUTE_ANSWER_LENGTH = 20
export const MAX_DISPUTE_ANSWER_LENGTH = 4000
export const MAX_EVIDENCE_LINKS = 5
export const MAX_EVIDENCE_LINK_LENGTH = 500

/** A full https address with a host that has a dot; the same pattern as answer_dispute's. */
export const EVIDENCE_LINK_PATTERN = /^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/

export const DISPUTE_ANSWER_MESSAGES = {
  tooShort: `Write your answer in at least ${MIN_DISPUTE_ANSWER_LENGTH} characters`,
  tooLong: `Keep your answer under ${numberText(MAX_DISPUTE_ANSWER_LENGTH)} characters`,
  tooManyLinks: `Add at most ${MAX_EVIDENCE_LINKS} evidence links`,
  linkTooLong: `Keep each evidence link under ${MAX_EVIDENCE_LINK_LENGTH} characters`,
  badLink: 'Evidence links must be full addresses that start with https://',
} as const

/** What is wrong with an answer's text (checked trimmed, as the database does), or null. */
export function disputeAnswerProblem(text: string): string | null {
  const length = text.trim().length
  if (length < MIN_DISPUTE_ANSWER_LENGTH) return DISPUTE_ANSWER_MESSAGES.tooShort
  if (length > MAX_DISPUTE_ANSWER_LENGTH) return DISPUTE_ANSWER_MESSAGES.tooLong
  return null
}

/** The evidence links of a text box, one per line: trimmed, blank lines and repeats left out, in their order. */
export function evidenceLinksOf(lines: string): string[] {
  return [...new Set(lines.split('\n').map((line) => line.trim()))].filter((line) => line !== '')
}

/** What is wrong with the evidence links (in answer_dispute's order of checks), or null. */
export function evidenceLinksProblem(links: string[]): string | null {
  if (links.length > MAX_EVIDENCE_LINKS) return DISPUTE_ANSWER_MESSAGES.tooManyLinks
  if (links.some((link) => link.length > MAX_EVIDENCE_LINK_LENGTH)) return DISPUTE_ANSWER_MESSAGES.linkTooLong
  if (links.some((link) => !EVIDENCE_LINK_PATTERN.test(link))) return DISPUTE_ANSWER_MESSAGES.badLink
  return null
}
