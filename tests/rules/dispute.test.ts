// How long a dispute's description must be, shared by the open-dispute dialog and pinned to open_dispute.
import { describe, expect, it } from 'vitest'
import {
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
