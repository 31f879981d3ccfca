import { beforeEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'
import { captureDownloads } from '../../../testing/downloads'

const payoutRow = (i: number, total: number) => ({
  id: `p${i}`,
  created_at: '2026-11-01T09:00:00+00:00',
  publisher_id: 'u2',
  publisher_email: 'pat@example.com',
  publisher_name: 'Pat Publisher',
  amount: 50 + i,
  status: i === 0 ? 'failed' : i === 2 ? 'reversed' : 'paid',
  transfer_reference: i === 0 ? null : `tr_${i}`,
  failure_reason: i === 0 ? 'Account closed' : null,
  failed_at: i === 0 ? '2026-11-02T09:00:00+00:00' : null,
  paid_at: i === 0 ? null : '2026-11-03T09:00:00+00:00',
  attempts: 1,
  amount_reversed: i === 2 ? 52 : 0,
  reversed_at: i === 2 ? '2026-11-04T09:00:00+00:00' : null,
  failed_before_transfer: false,
  total_count: total,
  in_flight_count: 2,
  failed_count: 5,
})

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

/** The payout search's GET calls (query strings), and what it answers: `total` matching rows, or a refusal. */
function handlers(payouts: { asked: URLSearchParams[]; total?: number; refuse?: string }) {
  return [
    http.get(restUrl('rpc/admin_marketplace_totals'), () => HttpResponse.json(TOTALS)),
    http.post(restUrl('rpc/admin_marketplace_totals'), () => HttpResponse.json(TOTALS)),
    http.get(restUrl('payout_requests'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_deposits'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_ledger'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_payout_requests'), ({ request }) => {
      const params = new URL(request.url).searchParams
      payouts.asked.push(params)
      if (payouts.refuse) return postgrestError(400, payouts.refuse, '22023')
      const total = payouts.total ?? 3
      const offset = Number(params.get('p_offset') ?? 0)
      const count = Math.max(0, Math.min(Number(params.get('p_limit') ?? 20), total - offset))
      return HttpResponse.json(Array.from({ length: count }, (_, i) => payoutRow(offset + i, total)))
    }),
  ]
}

const payoutSearch = () => screen.findByRole('search', { name: 'Search payout requests' })

describe('admin payout requests: search and filters', () => {
  beforeEach(() => signInAs('admin'))

  it('shows the database’s counts and each request with its publisher’s email', async () => {
    server.use(...handlers({ asked: [], total: 3 }))
    renderRoute('/dashboard/admin/money')
    // In flight and failed across the marketplace, as the database counted them, not the rows on this page.
    expect(await screen.findByTestId('admin-payout-summary')).toHaveTextContent('2 in flight · 5 failed')
    const rows = screen.getAllByTestId('admin-payout-row')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent('Pat Publisher · 50.00 credits')
    expect(rows[0]).toHaveTextContent('pat@example.com')
    expect(rows[0]).toHaveTextContent('Stripe refused the transfer: Account closed')
    // A reversed payout says so, with what came back and when.
    expect(rows[2]).toHaveTextContent('Reversed')
    expect(rows[2]).toHaveTextContent(/ · reversed \S/)
    expect(rows[2]).toHaveTextContent('transfer tr_2')
    expect(rows[2]).toHaveTextContent(
      'Stripe reversed 52.00 credits of the transfer: available to the publisher again.',
    )
    expect(screen.getByRole('navigation', { name: 'Payout request pages' })).toHaveTextContent('Page 1 of 1')
  })

  it('searches after a pause in typing and filters by status label, in its own URL parameters', async () => {
    const asked: URLSearchParams[] = []
    server.use(...handlers({ asked }))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money?tx_type=hold')
    const search = await payoutSearch()
    await user.type(within(search).getByLabelText('Search by email, name, transfer reference or reason'), 'pat@')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_search')).toBe('pat@'), { timeout: 50_000 })
    expect(asked.filter((p) => p.has('p_search')).map((p) => p.get('p_search'))).toEqual(['pat@'])
    const status = within(search).getByRole('combobox', { name: 'Status' })
    // Labels, never the database's codes.
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All statuses', 'Requested', 'Sending', 'Paid', 'Failed', 'Reversed', 'Canceled'])
    await user.selectOptions(status, 'Failed')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_status')).toBe('failed'), { timeout: 50_000 })
    expect(asked.at(-1)?.get('p_search')).toBe('pat@')
    expect(asked.at(-1)?.get('p_offset')).toBe('0')
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      tx_type: 'hold',
      pay_q: 'pat@',
      pay_status: 'failed',
    })
  })

  it('opens a linked view with its filters and page, and sends them to the database', async () => {
    const asked: URLSearchParams[] = []
    server.use(...handlers({ asked, total: 45 }))
    renderRoute('/dashboard/admin/money?pay_q=pat&pay_status=paid&pay_from=2026-11-01&pay_to=2026-11-30&pay_page=2')
    const search = await payoutSearch()
    await vi.waitFor(() => expect(asked.length).toBeGreaterThan(0), { timeout: 50_000 })
    expect(Object.fromEntries(asked[0]!)).toEqual({
      p_search: 'pat',
      p_status: 'paid',
      p_from: '2026-11-01',
      p_to: '2026-11-30',
      p_limit: '20',
      p_offset: '20',
    })
    expect(within(search).getByLabelText('Search by email, name, transfer reference or reason')).toHaveValue('pat')
    expect(within(search).getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Paid')
    expect(await screen.findByRole('navigation', { name: 'Payout request pages' })).toHaveTextContent('Page 2 of 3')
  })

  it('says when nothing matches the filters, with nothing to export', async () => {
    server.use(...handlers({ asked: [], total: 0 }))
    renderRoute('/dashboard/admin/money?pay_q=nobody')
    expect(await screen.findByText('No payout requests match these filters.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Export payout requests as CSV' })).toBeNull()
    expect(screen.queryByTestId('admin-payout-summary')).toBeNull()
  })

  it('says when a linked page is past the end of the list, and goes back to the first page', async () => {
    server.use(...handlers({ asked: [], total: 3 }))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money?pay_status=paid&pay_page=4')
    await user.click(await screen.findByRole('button', { name: 'Go to the first page' }))
    expect(await screen.findAllByTestId('admin-payout-row')).toHaveLength(3)
    expect(router.state.location.search).toBe('?pay_status=paid')
  })

  it("shows the database's sentence when it refuses a filter (a hand-edited link)", async () => {
    server.use(...handlers({ asked: [], refuse: 'Choose a status from the list' }))
    renderRoute('/dashboard/admin/money?pay_status=lost')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load payout requests')
    expect(alert).toHaveTextContent('Choose a status from the list')
  })
})

describe('admin payout requests: export', () => {
  const downloads = captureDownloads()
  beforeEach(() => signInAs('admin'))

  it('exports the current filters as CSV from the rows the database returned, and says how many', async () => {
    const asked: URLSearchParams[] = []
    server.use(...handlers({ asked, total: 2 }))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money?pay_q=pat&pay_status=paid&pay_page=1')
    await screen.findAllByTestId('admin-payout-row')
    await user.click(screen.getByRole('button', { name: 'Export payout requests as CSV' }))
    const status = await screen.findByText(/^Exported 2 rows to growletter-payouts-\d{4}-\d{2}-\d{2}\.csv\.$/)
    expect(status).toHaveAttribute('role', 'status')
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({
      p_search: 'pat',
      p_status: 'paid',
      p_limit: '10000',
      p_offset: '0',
    })
    expect(downloads).toHaveLength(1)
    expect(downloads[0]!.name).toMatch(/^growletter-payouts-\d{4}-\d{2}-\d{2}\.csv$/)
    const lines = (await downloads[0]!.blob.text()).trim().split('\r\n')
    expect(lines).toEqual([
      '"Requested (UTC)","Email","Name","Status","Amount (credits)","Transfer reference","Paid (UTC)","Failed (UTC)","Failure reason","Attempts","Reversed (credits)","Reversed (UTC)"',
      '"2026-11-01T09:00:00+00:00","pat@example.com","Pat Publisher","Failed","50.00","","","2026-11-02T09:00:00+00:00","Account closed","1","0.00",""',
      '"2026-11-01T09:00:00+00:00","pat@example.com","Pat Publisher","Paid","51.00","tr_1","2026-11-03T09:00:00+00:00","","","1","0.00",""',
    ])
  })

  it('says so when the 10,000-row limit cut the export', async () => {
    server.use(...handlers({ asked: [], total: 10_001 }))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await screen.findAllByTestId('admin-payout-row')
    await user.click(screen.getByRole('button', { name: 'Export payout requests as CSV' }))
    expect(
      await screen.findByText(/^Exported the first 10,000 rows of 10,001 to growletter-payouts-.*narrow the filters/),
    ).toBeInTheDocument()
  })

  it('says why an export failed, beside the button', async () => {
    const payouts = { asked: [] as URLSearchParams[], refuse: undefined as string | undefined }
    server.use(...handlers(payouts))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await screen.findAllByTestId('admin-payout-row')
    payouts.refuse = 'Enter your two-factor code to use admin tools'
    await user.click(screen.getByRole('button', { name: 'Export payout requests as CSV' }))
    expect(
      await screen.findByText('Could not export: Enter your two-factor code to use admin tools'),
    ).toBeInTheDocument()
    expect(downloads).toEqual([])
  })
})
