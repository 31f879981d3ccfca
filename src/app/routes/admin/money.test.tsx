import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'

const tx = (i: number, total: number) => ({
  id: `t${i}`,
  created_at: '2026-11-01T00:00:00Z',
  user_id: 'u1',
  user_email: 'ada@example.com',
  user_name: 'Ada Advertiser',
  amount: -2,
  type: 'hold',
  status: 'pending',
  description: `Subscriber ${i}`,
  reference: null,
  available_at: '2026-11-08T00:00:00Z',
  total_count: total,
})

const depositRow = (i: number, total: number) => ({
  id: `d${i}`,
  created_at: '2026-11-01T00:00:00Z',
  user_id: 'u1',
  user_email: 'ada@example.com',
  user_name: 'Ada Advertiser',
  amount: 25,
  status: (['pending', 'completed', 'canceled', 'expired'] as const)[i] ?? 'completed',
  stripe_session_id: `cs_test_ref${i}`,
  stripe_payment_intent: i === 0 ? null : `pi_test_${i}`,
  failure_reason: null,
  completed_at: null,
  total_count: total,
})

/** An rpc's rows for one page (`p_limit`, `p_offset` in the query string of a GET), each with the match count. */
function pageOf<T>(request: Request, total: number, row: (i: number, total: number) => T) {
  const params = new URL(request.url).searchParams
  const offset = Number(params.get('p_offset') ?? 0)
  const limit = Number(params.get('p_limit') ?? 20)
  const count = Math.max(0, Math.min(limit, total - offset))
  return HttpResponse.json(Array.from({ length: count }, (_, i) => row(offset + i, total)))
}

/** A row of admin_payout_requests: the request, its publisher, and the counts every row carries. */
const payoutRow = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  created_at: '2026-11-01T00:00:00Z',
  publisher_id: 'u2',
  publisher_email: 'pat@example.com',
  publisher_name: 'Pat Publisher',
  amount: 60,
  status,
  transfer_reference: null,
  failure_reason: null,
  failed_at: null,
  paid_at: null,
  attempts: 0,
  total_count: 1,
  in_flight_count: 0,
  failed_count: 0,
  ...extra,
})

const markPaidCalls: unknown[] = []

function moneyHandlers(asked: URLSearchParams[] = []) {
  markPaidCalls.length = 0
  let payoutStatus = 'requested'
  return [
    http.get(restUrl('rpc/admin_deposits'), ({ request }) => pageOf(request, 22, depositRow)),
    // One row aggregated by the database over every wallet, ledger row and stat (admin_marketplace_totals).
    http.get(restUrl('rpc/admin_marketplace_totals'), () =>
      HttpResponse.json({
        wallets: 2,
        balance: 120,
        on_hold: 4,
        reserved: 6,
        pending_earnings: 3.2,
        spend: 10,
        earnings: 8,
        platform_fees: 2,
        open_payouts: payoutStatus === 'requested' ? 60 : 0,
        open_payout_count: payoutStatus === 'requested' ? 1 : 0,
        paid_out: 50,
        open_disputes: 1,
      }),
    ),
    http.get(restUrl('payout_requests'), ({ request }) => {
      const url = new URL(request.url)
      if (url.searchParams.get('status') === 'eq.requested')
        return HttpResponse.json(payoutStatus === 'requested' ? [{ amount: 60 }] : [])
      return HttpResponse.json([])
    }),
    http.get(restUrl('rpc/admin_payout_requests'), () => HttpResponse.json([payoutRow('p1', payoutStatus)])),
    http.post(restUrl('rpc/admin_mark_payout_paid'), async ({ request }) => {
      markPaidCalls.push(await request.json())
      payoutStatus = 'paid'
      return HttpResponse.json({ id: 'p1', status: 'paid' })
    }),
    http.get(restUrl('rpc/admin_ledger'), ({ request }) => {
      const params = new URL(request.url).searchParams
      asked.push(params)
      return pageOf(request, params.get('p_type') ? 3 : 25, tx)
    }),
  ]
}

describe('admin money', () => {
  it('shows loading placeholders', async () => {
    signInAs('admin')
    const never = () => new Promise<never>(() => {})
    server.use(
      http.get(restUrl('rpc/admin_marketplace_totals'), never),
      http.get(restUrl('payout_requests'), never),
      http.get(restUrl('rpc/admin_payout_requests'), never),
      http.get(restUrl('rpc/admin_ledger'), never),
      http.get(restUrl('rpc/admin_deposits'), never),
    )
    renderRoute('/dashboard/admin/money')
    // The first render of the file loads the admin area's chunk: give it time on a busy machine.
    expect(await screen.findByRole('status', { name: 'Loading marketplace totals' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading payout requests' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading transactions' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading deposits' })).toBeInTheDocument()
  })

  it('shows marketplace totals', async () => {
    signInAs('admin')
    server.use(...moneyHandlers())
    renderRoute('/dashboard/admin/money')
    const totals = await screen.findByTestId('marketplace-totals')
    expect(within(totals).getByText('Credits in wallets').nextSibling).toHaveTextContent('120.00 credits')
    expect(within(totals).getByText('On hold (screening)').nextSibling).toHaveTextContent('4.00 credits')
    expect(within(totals).getByText('Pending publisher earnings').nextSibling).toHaveTextContent('3.20 credits')
    expect(within(totals).getByText('Platform fees').nextSibling).toHaveTextContent('2.00 credits')
    expect(within(totals).getByText('Open payout requests').nextSibling).toHaveTextContent('60.00 credits')
    expect(within(totals).getByText('Reserved (pending subscribers)').nextSibling).toHaveTextContent('6.00 credits')
    expect(within(totals).getByText('Open disputes').nextSibling).toHaveTextContent('1')
  })

  it('says when there are no transactions or payout requests, and when a read fails', async () => {
    signInAs('admin')
    server.use(
      http.get(restUrl('rpc/admin_marketplace_totals'), () => postgrestError(500, 'wallets offline')),
      http.get(restUrl('payout_requests'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/admin_payout_requests'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/admin_ledger'), () => HttpResponse.json([])),
      http.get(restUrl('rpc/admin_deposits'), () => HttpResponse.json([])),
    )
    renderRoute('/dashboard/admin/money')
    expect(await screen.findByText('No payout requests yet.')).toBeInTheDocument()
    expect(await screen.findByText('No deposits yet.')).toBeInTheDocument()
    expect(await screen.findByText('No transactions yet.')).toBeInTheDocument()
    expect(await screen.findByRole('alert')).toHaveTextContent('wallets offline')
  })

  it('pages through all transactions and narrows to holds', async () => {
    signInAs('admin')
    const asked: URLSearchParams[] = []
    server.use(...moneyHandlers(asked))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    const table = await screen.findByTestId('admin-transactions')
    expect(within(table).getAllByRole('row')).toHaveLength(21)
    expect(table).toHaveTextContent('Ada Advertiser')
    expect(table).toHaveTextContent('Settles')
    await user.click(
      within(screen.getByRole('navigation', { name: 'Transaction pages' })).getByRole('button', { name: 'Next' }),
    )
    expect(await screen.findByText('Subscriber 24')).toBeInTheDocument()
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'On hold' }))
    // Scoped: the payout requests have a pager of their own.
    expect(
      await within(screen.getByRole('navigation', { name: 'Transaction pages' })).findByText('Page 1 of 1'),
    ).toBeInTheDocument()
    const last = asked[asked.length - 1]!
    expect([last.get('p_type'), last.get('p_status'), last.get('p_offset')]).toEqual(['hold', 'pending', '0'])
  })

  it('lists deposits with their Stripe reference and status (Canceled and Expired checkouts say so), 20 a page', async () => {
    signInAs('admin')
    server.use(...moneyHandlers())
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    const table = await screen.findByTestId('admin-deposits')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(20)
    expect(rows[0]).toHaveTextContent('Ada Advertiser')
    expect(rows[0]).toHaveTextContent('Awaiting payment')
    expect(rows[0]).toHaveTextContent('cs_test_ref0')
    expect(rows[0]).toHaveTextContent('25.00 credits')
    expect(rows[1]).toHaveTextContent('Completed')
    expect(rows[1]).toHaveTextContent('pi_test_1')
    // A checkout left unpaid says how it closed.
    expect(rows[2]).toHaveTextContent('Canceled')
    expect(rows[3]).toHaveTextContent('Expired')
    const pager = screen.getByRole('navigation', { name: 'Deposit pages' })
    await user.click(within(pager).getByRole('button', { name: 'Next' }))
    expect(await within(table).findByText('cs_test_ref21')).toBeInTheDocument()
  })

  it('marks a payout paid by hand with its transfer reference after a confirmation stating the amount', async () => {
    signInAs('admin')
    server.use(...moneyHandlers())
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await user.click(await screen.findByRole('button', { name: 'Mark paid by hand 60.00 credits to Pat Publisher' }))
    const dialog = await screen.findByRole('dialog', { name: 'Mark 60.00 credits paid by hand' })
    expect(dialog).toHaveTextContent(
      'Confirm that you transferred 60.00 credits (US$60.00) to Pat Publisher yourself, outside Stripe',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Mark 60.00 credits paid' }))
    expect(
      await within(dialog).findByText('Enter the transfer reference of the payment (at least 3 characters)'),
    ).toBeInTheDocument()
    expect(markPaidCalls).toEqual([])
    await user.type(within(dialog).getByLabelText('Transfer reference'), ' SEPA-2026-0042 ')
    await user.click(within(dialog).getByRole('button', { name: 'Mark 60.00 credits paid' }))
    // The toast comes after the call and the refetch of every admin figure: allow a busy machine its time.
    expect(await screen.findByText('Payout marked paid')).toBeInTheDocument()
    expect(markPaidCalls).toEqual([{ p_payout_id: 'p1', p_reference: 'SEPA-2026-0042' }])
    const list = screen.getByRole('list', { name: 'Payout requests' })
    expect(await within(list).findByText('Paid')).toBeInTheDocument()
  })

  it("shows payouts in flight and failed ones with Stripe's reason, and retries a failed one after a confirmation", async () => {
    signInAs('admin')
    server.use(...moneyHandlers())
    let failedStatus = 'failed'
    const retried: unknown[] = []
    // The counts come from the database with every row (admin_payout_requests), not from the rows shown.
    const row = (id: string, status: string, extra: Record<string, unknown> = {}) =>
      payoutRow(id, status, {
        amount: 75,
        attempts: 1,
        publisher_name: id === 'p2' ? 'Sam Okafor' : 'Lena Fischer',
        total_count: 2,
        in_flight_count: 1,
        failed_count: failedStatus === 'failed' ? 1 : 0,
        ...extra,
      })
    server.use(
      http.get(restUrl('rpc/admin_payout_requests'), () =>
        HttpResponse.json([
          row('p2', 'sending'),
          row('p3', failedStatus, {
            failed_at: '2026-11-02T09:30:00Z',
            failure_reason: failedStatus === 'failed' ? 'Your destination account needs transfers enabled' : null,
          }),
        ]),
      ),
      http.post(restUrl('rpc/admin_retry_payout'), async ({ request }) => {
        retried.push(await request.json())
        failedStatus = 'requested'
        return HttpResponse.json({ id: 'p3', status: 'requested', amount: 75 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    expect(await screen.findByTestId('admin-payout-summary')).toHaveTextContent('1 in flight · 1 failed')
    const [sending, failed] = await screen.findAllByTestId('admin-payout-row')
    // In flight: neither retried nor paid by hand while Stripe has it.
    expect(within(sending!).getByText('Sending')).toBeInTheDocument()
    expect(within(sending!).queryByRole('button')).toBeNull()
    expect(failed).toHaveTextContent('Stripe refused the transfer: Your destination account needs transfers enabled')
    expect(failed).toHaveTextContent('failed Nov 2, 2026')
    expect(
      within(failed!).getByRole('button', { name: 'Mark paid by hand 75.00 credits to Lena Fischer' }),
    ).toBeVisible()
    await user.click(within(failed!).getByRole('button', { name: 'Retry 75.00 credits to Lena Fischer' }))
    const dialog = await screen.findByRole('dialog', { name: 'Retry the payout of 75.00 credits' })
    expect(dialog).toHaveTextContent('Send 75.00 credits (US$75.00) to Lena Fischer through Stripe again.')
    expect(dialog).toHaveTextContent('The last transfer failed: Your destination account needs transfers enabled.')
    expect(retried).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Retry 75.00 credits' }))
    expect(await screen.findByText('Payout sent again')).toBeInTheDocument()
    expect(retried).toEqual([{ p_payout_id: 'p3' }])
    expect(await screen.findByTestId('admin-payout-summary')).toHaveTextContent('1 in flight · 0 failed')
  })
})
