// The admin's reconciliation with Stripe on the Money page: one click runs reconcile-payouts, then the page says what
// was compared and shows each difference in words (label, explanation, what is recorded here and at Stripe), or that
// everything matches; a refusal (not at aal2) is said in the function's words.
import { beforeEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Reconciliation } from '@rules/payout-reconciliation'
import { functionsUrl, restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { signInAs } from '../../../testing/signed-in-fixtures'

const TOTALS = {
  wallets: 0,
  balance: 0,
  on_hold: 0,
  reserved: 0,
  pending_earnings: 0,
  spend: 0,
  earnings: 0,
  platform_fees: 0,
  open_payouts: 0,
  open_payout_count: 0,
  paid_out: 0,
  open_disputes: 0,
}

const RESULT: Reconciliation = {
  checked_at: '2026-11-30T10:00:00Z',
  accounts: 3,
  payouts_checked: 12,
  transfers_seen: 13,
  differences: [
    {
      kind: 'reversed_at_stripe',
      payout_id: 'p-1',
      transfer_id: 'tr_1Reversed',
      account: 'acct_1Pat',
      publisher: 'Pat Publisher',
      recorded: '0.00 credits reversed (paid)',
      at_stripe: '60.00 credits reversed (the whole transfer)',
    },
    {
      kind: 'transfer_without_payout',
      payout_id: null,
      transfer_id: 'tr_1ByHand',
      account: 'acct_1Pat',
      publisher: 'Pat Publisher',
      recorded: 'no payout',
      at_stripe: '12.34 credits transferred',
    },
  ],
}

/** The Money page's reads (nothing to show), and reconcile-payouts answering `answer` to each call it counts. */
function handlers(answer: () => Response, calls: { n: number }) {
  return [
    http.get(restUrl('rpc/admin_marketplace_totals'), () => HttpResponse.json(TOTALS)),
    http.post(restUrl('rpc/admin_marketplace_totals'), () => HttpResponse.json(TOTALS)),
    http.get(restUrl('rpc/admin_payout_requests'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_deposits'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_ledger'), () => HttpResponse.json([])),
    http.post(functionsUrl('reconcile-payouts'), () => {
      calls.n++
      return answer()
    }),
  ]
}

const reconcileButton = () => screen.findByRole('button', { name: 'Reconcile with Stripe' })

describe('admin: reconcile payouts with Stripe', () => {
  beforeEach(() => signInAs('admin'))

  it('runs only when asked, then shows what it compared and each difference in words', async () => {
    const calls = { n: 0 }
    server.use(...handlers(() => HttpResponse.json(RESULT), calls))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await user.click(await reconcileButton())
    const result = await screen.findByRole('region', { name: 'Reconciliation with Stripe' })
    expect(calls.n).toBe(1)
    expect(within(result).getByTestId('reconcile-summary')).toHaveTextContent(
      /^Checked 12 payouts against 13 Stripe transfers on 3 accounts, /,
    )
    expect(result).toHaveTextContent('2 differences with Stripe')
    const rows = within(result).getAllByTestId('reconcile-difference')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Reversed at Stripe, paid here')
    expect(rows[0]).toHaveTextContent("the publisher's balance is missing it")
    expect(rows[0]).toHaveTextContent('Pat Publisher')
    expect(rows[0]).toHaveTextContent('Here0.00 credits reversed (paid)')
    expect(rows[0]).toHaveTextContent('At Stripe60.00 credits reversed (the whole transfer)')
    expect(rows[0]).toHaveTextContent('Transfertr_1Reversed')
    expect(rows[0]).toHaveTextContent('Payoutp-1')
    expect(rows[1]).toHaveTextContent('Transfer without a paid payout')
    expect(rows[1]).toHaveTextContent('At Stripe12.34 credits transferred')
    expect(rows[1]).not.toHaveTextContent('Payout')
  })

  it('says when everything matches', async () => {
    server.use(...handlers(() => HttpResponse.json({ ...RESULT, differences: [] }), { n: 0 }))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await user.click(await reconcileButton())
    expect(await screen.findByText('No differences: every payout matches Stripe.')).toBeInTheDocument()
    expect(screen.queryAllByTestId('reconcile-difference')).toEqual([])
  })

  it("says why it was refused, in the function's words", async () => {
    server.use(
      ...handlers(
        () => HttpResponse.json({ error: 'Enter your two-factor code to use admin tools' }, { status: 403 }),
        { n: 0 },
      ),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await user.click(await reconcileButton())
    const alerts = await screen.findAllByText('Enter your two-factor code to use admin tools', { exact: false })
    expect(alerts.length).toBeGreaterThan(0)
    expect(screen.queryByRole('region', { name: 'Reconciliation with Stripe' })).toBeNull()
  })
})
