// How long a dispute's description must be, shared by the open-dispute dialog and pinned to open_dispute; and the
// publisher's answer (text and evidence links), shared by the answer form and pinned to answer_dispute.
import { describe, expect, it } from 'vitest'
import {
  DISPUTE_ANSWER_MESSAGES,
  disputeAnswerProblem,
  evidenceLinksOf,
  evidenceLinksProblem,
  DISPUTE_REASON_MESSAGES,
  MAX_DISPUTE_REASON_LENGTH,
  MIN_DISPUTE_REASON_LENGTH,
  disputeReasonProblem,
} from '@rules/dispute'

describe('dispute description', () => {
  it('takes 10 to 2,000 characters, counted without the spaces around it', () => {
    expect([MIN_DISPUTE_REASON_LENGTH, MAX_DISPUTE_REASON_LENGTH]).toEqual([10, 2000])
    expect(disputeReasonProblem(`  ${'x'.repeat(9)}  `)).toBe(DISPUTE_REASON_MESSAGES.tooShort)
    expect(disputeReasonProblem('x'.repeat(10))).toBeNull()
    expect(disputeReasonProblem('x'.repeat(2000))).toBeNull()
    expect(disputeReasonProblem('x'.repeat(2001))).toBe(DISPUTE_REASON_MESSAGES.tooLong)
    expect(DISPUTE_REASON_MESSAGES.tooShort).toBe('Describe the problem in at least 10 characters')
    expect(DISPUTE_REASON_MESSAGES.tooLong).toBe('Keep the description under 2,000 characters')
  })
})

describe("the publisher's answer", () => {
  it('takes 20 to 4,000 characters, counted without the spaces around it', () => {
    expect(disputeAnswerProblem(`  ${'x'.repeat(19)}  `)).toBe(DISPUTE_ANSWER_MESSAGES.tooShort)
    expect(disputeAnswerProblem('x'.repeat(20))).toBeNull()
    expect(disputeAnswerProblem('x'.repeat(4000))).toBeNull()
    expect(disputeAnswerProblem('x'.repeat(4001))).toBe(DISPUTE_ANSWER_MESSAGES.tooLong)
    expect(DISPUTE_ANSWER_MESSAGES.tooLong).toBe('Keep your answer under 4,000 characters')
  })

  it('reads evidence links one per line, and takes up to 5 https addresses', () => {
    expect(evidenceLinksOf(' https://a.example/1 \n\n https://a.example/1\nhttps://b.example ')).toEqual([
      'https://a.example/1',
      'https://b.example',
    ])
    expect(evidenceLinksProblem([])).toBeNull()
    expect(evidenceLinksProblem(['https://x.com/pat/status/1', 'https://youtu.be/abc?t=3'])).toBeNull()
    expect(evidenceLinksProblem(['http://x.com/pat'])).toBe(DISPUTE_ANSWER_MESSAGES.badLink)
    expect(evidenceLinksProblem(['javascript:alert(1)'])).toBe(DISPUTE_ANSWER_MESSAGES.badLink)
    expect(evidenceLinksProblem(['https://localhost/x'])).toBe(DISPUTE_ANSWER_MESSAGES.badLink)
    expect(evidenceLinksProblem(Array.from({ length: 6 }, (_, i) => `https://a.example/${i}`))).toBe(
      DISPUTE_ANSWER_MESSAGES.tooManyLinks,
    )
    expect(evidenceLinksProblem([`https://a.example/${'x'.repeat(500)}`])).toBe(DISPUTE_ANSWER_MESSAGES.linkTooLong)
  })
})
