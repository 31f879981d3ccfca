// Payout rules, shared by the payout and mark-paid dialogs and pinned to request_payout and admin_mark_payout_paid:
// the minimum is inclusive, and a transfer reference is measured trimmed, as the database measures it.
import { describe, expect, it } from 'vitest'
import {
  MAX_TRANSFER_REFERENCE_LENGTH,
  MIN_PAYOUT,
  MIN_TRANSFER_REFERENCE_LENGTH,
  PAYOUT_MESSAGES,
  TRANSFER_REFERENCE_MESSAGES,
  transferReferenceProblem,
} from '@rules/payout'

describe('payout rules', () => {
  it('ask for at least 50 credits, in the words the database raises', () => {
    expect(MIN_PAYOUT).toBe(50)
    expect(PAYOUT_MESSAGES.belowMinimum).toBe('The minimum payout is 50 credits')
  })

  it('accept a transfer reference of 3 to 200 characters, counted without the spaces around it', () => {
    expect([MIN_TRANSFER_REFERENCE_LENGTH, MAX_TRANSFER_REFERENCE_LENGTH]).toEqual([3, 200])
    expect(transferReferenceProblem('  ab  ')).toBe(TRANSFER_REFERENCE_MESSAGES.tooShort)
    expect(transferReferenceProblem(' abc ')).toBeNull()
    expect(transferReferenceProblem('x'.repeat(200))).toBeNull()
    expect(transferReferenceProblem('x'.repeat(201))).toBe(TRANSFER_REFERENCE_MESSAGES.tooLong)
    expect(TRANSFER_REFERENCE_MESSAGES.tooShort).toBe(
      'Enter the transfer reference of the payment (at least 3 characters)',
    )
    expect(TRANSFER_REFERENCE_MESSAGES.tooLong).toBe('The transfer reference can be at most 200 characters')
  })
})
