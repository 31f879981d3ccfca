// The comparison reconcile-payouts makes between the payouts Growletter recorded and the transfers Stripe lists:
// each kind of difference found once, nothing reported for a payout that matches, a transfer whose payout is still
// being sent left alone, and a label for every kind the admin's page may show.
import { describe, expect, it } from 'vitest'
import {
  DIFFERENCE_KINDS,
  RECONCILIATION_DIFFERENCES,
  reconcilePayouts,
  type ListedTransfer,
  type RecordedPayout,
} from '@rules/payout-reconciliation'

const ACCT = 'acct_1Pat'
const accounts = [{ account: ACCT, publisher_id: 'u1', publisher_email: 'pat@example.com', publisher_name: 'Pat' }]

const payout = (id: string, extra: Partial<RecordedPayout> = {}): RecordedPayout => ({
  id,
  publisher_id: 'u1',
  amount: '60.00',
  status: 'paid',
  transfer_reference: `tr_${id}`,
  destination: ACCT,
  amount_reversed: '0.00',
  ...extra,
})

const transfer = (id: string, extra: Partial<ListedTransfer> = {}): ListedTransfer => ({
  id,
  amount: 6000,
  amount_reversed: 0,
  reversed: false,
  destination: ACCT,
  created: 1_790_000_000,
  metadata: {},
  ...extra,
})

describe('reconcilePayouts', () => {
  it('finds nothing when every paid payout has its transfer, amount, account and reversals (partial ones included)', () => {
    const payouts = [
      payout('a'),
      payout('b', { status: 'reversed', amount_reversed: 60 }),
      payout('c', { amount: 50.5, amount_reversed: '20.25' }),
      // Paid by hand outside Stripe, and a request never sent: nothing to compare.
      payout('d', { transfer_reference: 'SEPA-42', destination: null }),
      payout('e', { status: 'requested', transfer_reference: null, destination: null }),
    ]
    const transfers = [
      transfer('tr_a'),
      transfer('tr_b', { amount_reversed: 6000, reversed: true }),
      transfer('tr_c', { amount: 5050, amount_reversed: 2025 }),
    ]
    expect(reconcilePayouts(payouts, transfers, accounts)).toEqual({ payouts_checked: 3, differences: [] })
  })

  it('reports a missing transfer, another amount, another account and a reversal recorded on one side only', () => {
    const payouts = [
      payout('missing'),
      payout('amount'),
      payout('account'),
      payout('reversedThere'),
      payout('reversedHere', { status: 'reversed', amount_reversed: 60 }),
    ]
    const transfers = [
      transfer('tr_amount', { amount: 5000 }),
      transfer('tr_account', { destination: 'acct_1Other' }),
      transfer('tr_reversedThere', { amount_reversed: 6000, reversed: true }),
      transfer('tr_reversedHere'),
    ]
    const { payouts_checked, differences } = reconcilePayouts(payouts, transfers, accounts)
    expect(payouts_checked).toBe(5)
    expect(differences).toEqual([
      {
        kind: 'missing_transfer',
        payout_id: 'missing',
        transfer_id: 'tr_missing',
        account: ACCT,
        publisher: 'Pat',
        recorded: `60.00 credits paid to ${ACCT}`,
        at_stripe: 'no such transfer',
      },
      {
        kind: 'amount_differs',
        payout_id: 'amount',
        transfer_id: 'tr_amount',
        account: ACCT,
        publisher: 'Pat',
        recorded: '60.00 credits',
        at_stripe: '50.00 credits',
      },
      {
        kind: 'destination_differs',
        payout_id: 'account',
        transfer_id: 'tr_account',
        account: 'acct_1Other',
        publisher: 'Pat',
        recorded: ACCT,
        at_stripe: 'acct_1Other',
      },
      {
        kind: 'reversed_at_stripe',
        payout_id: 'reversedThere',
        transfer_id: 'tr_reversedThere',
        account: ACCT,
        publisher: 'Pat',
        recorded: '0.00 credits reversed (paid)',
        at_stripe: '60.00 credits reversed (the whole transfer)',
      },
      {
        kind: 'reversed_here_only',
        payout_id: 'reversedHere',
        transfer_id: 'tr_reversedHere',
        account: ACCT,
        publisher: 'Pat',
        recorded: '60.00 credits reversed (reversed)',
        at_stripe: '0.00 credits reversed',
      },
    ])
  })

  it('reports a transfer no paid payout accounts for (a second transfer for one payout included), not one in flight', () => {
    const payouts = [
      payout('paid'),
      payout('failed', { status: 'failed', transfer_reference: null }),
      payout('sending', { status: 'sending', transfer_reference: null }),
    ]
    const transfers = [
      transfer('tr_paid', { metadata: { payout_id: 'paid' } }),
      transfer('tr_again', { metadata: { payout_id: 'paid' }, amount_reversed: 1000 }),
      transfer('tr_failedHere', { metadata: { payout_id: 'failed' } }),
      transfer('tr_inFlight', { metadata: { payout_id: 'sending' } }),
      transfer('tr_byHand', { amount: 1234, destination: 'acct_1Unknown' }),
    ]
    expect(reconcilePayouts(payouts, transfers, accounts).differences).toEqual([
      {
        kind: 'transfer_without_payout',
        payout_id: 'paid',
        transfer_id: 'tr_again',
        account: ACCT,
        publisher: 'Pat',
        recorded: 'payout paid, without this transfer',
        at_stripe: '60.00 credits transferred, 10.00 credits reversed',
      },
      {
        kind: 'transfer_without_payout',
        payout_id: 'failed',
        transfer_id: 'tr_failedHere',
        account: ACCT,
        publisher: 'Pat',
        recorded: 'payout failed, without this transfer',
        at_stripe: '60.00 credits transferred',
      },
      {
        kind: 'transfer_without_payout',
        payout_id: null,
        transfer_id: 'tr_byHand',
        account: 'acct_1Unknown',
        publisher: null,
        recorded: 'no payout',
        at_stripe: '12.34 credits transferred',
      },
    ])
  })

  it('has a label and an explanation for every kind', () => {
    expect(Object.keys(RECONCILIATION_DIFFERENCES).sort()).toEqual([...DIFFERENCE_KINDS].sort())
    for (const kind of DIFFERENCE_KINDS) {
      expect(RECONCILIATION_DIFFERENCES[kind].label).not.toBe('')
      expect(RECONCILIATION_DIFFERENCES[kind].explain).toMatch(/\.$/)
    }
  })
})
