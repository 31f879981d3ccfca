import { beforeEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'
import { captureDownloads } from '../../../testing/downloads'

const ledgerRow = (i: number, total: number, over: Record<string, unknown> = {}) => ({
  id: `t${i}`,
  created_at: '2026-11-01T09:00:00+00:00',
  user_id: 'u1',
  user_email: 'ada@example.com',
  user_name: 'Ada Advertiser',
  amount: 40,
  type: 'deposit',
  status: 'completed',
  description: `Deposit ${i}`,
  reference: `cs_test_${i}`,
  available_at: null,
  total_count: total,
  ...over,
})

/** The ledger's GET calls (query strings), and what it answers: `total` matching rows, or a refusal. */
function moneyHandlers(ledger: { asked: URLSearchParams[]; total?: number; refuse?: string }) {
  return [
    http.post(restUrl('rpc/admin_marketplace_totals'), () =>
      HttpResponse.json({
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
      }),
    ),
    http.get(restUrl('payout_requests'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_payout_requests'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_deposits'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_ledger'), ({ request }) => {
      const params = new URL(request.url).searchParams
      ledger.asked.push(params)
      if (ledger.refuse) return postgrestError(400, ledger.refuse, '22023')
      const total = ledger.total ?? 3
      const offset = Number(params.get('p_offset') ?? 0)
      const count = Math.max(0, Math.min(Number(params.get('p_limit') ?? 20), total - offset))
      return HttpResponse.json(Array.from({ length: count }, (_, i) => ledgerRow(offset + i, total)))
    }),
  ]
}

const ledgerSection = async () => {
  const table = await screen.findByTestId('admin-transactions')
  return table.parentElement!
}

describe('admin money search', () => {
  beforeEach(() => signInAs('admin'))

  it('searches the ledger after a pause in typing, filters by type label, and keeps both in the URL', async () => {
    const asked: URLSearchParams[] = []
    server.use(...moneyHandlers({ asked, total: 25 }))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money?tx_page=2&dep_q=cs_test')
    const section = await ledgerSection()
    await user.type(within(section).getByLabelText('Search by email, name, reference or description'), 'ada@')
    // One call for the whole word once typing pauses, from the first page.
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_search')).toBe('ada@'), { timeout: 50_000 })
    expect(asked.filter((p) => p.has('p_search')).map((p) => p.get('p_search'))).toEqual(['ada@'])
    expect(asked.at(-1)?.get('p_offset')).toBe('0')
    expect(within(section).getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('All types')
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Type' }), 'Deposit')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_type')).toBe('deposit'), { timeout: 50_000 })
    expect(asked.at(-1)?.get('p_search')).toBe('ada@')
    const url = new URLSearchParams(router.state.location.search)
    expect(Object.fromEntries(url)).toEqual({ dep_q: 'cs_test', tx_q: 'ada@', tx_type: 'deposit' })
    // Labels, never the database's codes.
    const statuses = within(within(section).getByRole('combobox', { name: 'Status' })).getAllByRole('option')
    expect(statuses.map((o) => o.textContent)).toEqual(['All statuses', 'Pending', 'Completed', 'Failed', 'Canceled'])
  })

  it('opens a linked view with its filters and page, and sends them to the database', async () => {
    const asked: URLSearchParams[] = []
    server.use(...moneyHandlers({ asked, total: 45 }))
    renderRoute(
      '/dashboard/admin/money?tx_q=ada&tx_type=hold&tx_status=pending&tx_from=2026-11-01&tx_to=2026-11-30&tx_page=2',
    )
    const section = await ledgerSection()
    expect(Object.fromEntries(asked[0]!)).toEqual({
      p_search: 'ada',
      p_type: 'hold',
      p_status: 'pending',
      p_from: '2026-11-01',
      p_to: '2026-11-30',
      p_limit: '20',
      p_offset: '20',
    })
    expect(within(section).getByLabelText('Search by email, name, reference or description')).toHaveValue('ada')
    expect(within(section).getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('Hold')
    expect(within(section).getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Pending')
    expect(within(section).getByLabelText('From')).toHaveValue('2026-11-01')
    expect(within(section).getByLabelText('To')).toHaveValue('2026-11-30')
    expect(within(section).getByRole('button', { name: 'On hold' })).toHaveAttribute('aria-pressed', 'true')
    expect(within(section).getByText('Page 2 of 3')).toBeInTheDocument()
  })

  it('narrows by dates from the picker, refuses a reversed range beside the fields, and clears back to any date', async () => {
    const asked: URLSearchParams[] = []
    server.use(...moneyHandlers({ asked }))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money')
    const section = await ledgerSection()
    await user.click(within(section).getByRole('button', { name: 'Filter by date' }))
    await vi.waitFor(() => expect(asked.at(-1)?.has('p_from')).toBe(true), { timeout: 50_000 })
    const from = within(section).getByLabelText('From')
    await user.clear(from)
    await user.type(from, '2999-01-01')
    expect(within(section).getByRole('alert')).toHaveTextContent('The start date must be on or before the end date')
    expect(asked.some((p) => p.get('p_from') === '2999-01-01')).toBe(false)
    await user.click(within(section).getByRole('button', { name: 'Any date' }))
    // The whole ledger again (its first answer is still cached, so no new call is needed).
    await vi.waitFor(() => expect(router.state.location.search).toBe(''), { timeout: 50_000 })
    expect(within(section).queryByLabelText('From')).toBeNull()
    expect(within(section).getByRole('button', { name: 'Filter by date' })).toBeVisible()
  })

  it('says when a linked page is past the end of the list, and goes back to the first page', async () => {
    server.use(...moneyHandlers({ asked: [], total: 3 }))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money?tx_type=deposit&tx_page=4')
    await user.click(await screen.findByRole('button', { name: 'Go to the first page' }))
    expect(await screen.findByTestId('admin-transactions')).toHaveTextContent('Deposit 2')
    expect(router.state.location.search).toBe('?tx_type=deposit')
  })

  it('says when nothing matches the filters', async () => {
    server.use(...moneyHandlers({ asked: [], total: 0 }))
    renderRoute('/dashboard/admin/money?tx_q=nobody')
    expect(await screen.findByText('No transactions match these filters.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Export transactions as CSV' })).toBeNull()
  })

  it("shows the database's sentence beside the filters when it refuses one (a hand-edited link)", async () => {
    server.use(...moneyHandlers({ asked: [], refuse: 'Choose a transaction type from the list' }))
    renderRoute('/dashboard/admin/money?tx_type=gift')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load transactions')
    expect(alert).toHaveTextContent('Choose a transaction type from the list')
  })
})

describe('admin deposit search', () => {
  beforeEach(() => signInAs('admin'))

  it('searches deposits by Stripe reference and filters by status label, in its own URL parameters', async () => {
    const asked: URLSearchParams[] = []
    // Before the shared handlers: MSW answers with the first handler that matches.
    server.use(
      http.get(restUrl('rpc/admin_deposits'), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json([])
      }),
      ...moneyHandlers({ asked: [] }),
    )
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/admin/money?tx_type=hold')
    expect(await screen.findByText('No deposits yet.')).toBeInTheDocument()
    const search = screen.getByRole('search', { name: 'Search deposits' })
    await user.type(within(search).getByLabelText('Search by email, name or Stripe reference'), 'cs_test_42{Enter}')
    await user.selectOptions(within(search).getByRole('combobox', { name: 'Status' }), 'Awaiting payment')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_status')).toBe('pending'), { timeout: 50_000 })
    expect(asked.at(-1)?.get('p_search')).toBe('cs_test_42')
    expect(await screen.findByText('No deposits match these filters.')).toBeInTheDocument()
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      tx_type: 'hold',
      dep_q: 'cs_test_42',
      dep_status: 'pending',
    })
  })
})

describe('admin money export', () => {
  const downloads = captureDownloads()
  beforeEach(() => signInAs('admin'))

  it('exports the current filters as CSV from the rows the database returned, and says how many', async () => {
    const asked: URLSearchParams[] = []
    server.use(...moneyHandlers({ asked, total: 3 }))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money?tx_q=ada&tx_type=deposit&tx_page=1')
    await ledgerSection()
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    const status = await screen.findByText(/^Exported 3 rows to growletter-ledger-\d{4}-\d{2}-\d{2}\.csv\.$/)
    expect(status).toHaveAttribute('role', 'status')
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({
      p_search: 'ada',
      p_type: 'deposit',
      p_limit: '10000',
      p_offset: '0',
    })
    expect(downloads).toHaveLength(1)
    expect(downloads[0]!.name).toMatch(/^growletter-ledger-\d{4}-\d{2}-\d{2}\.csv$/)
    const lines = (await downloads[0]!.blob.text()).trim().split('\r\n')
    expect(lines).toHaveLength(4)
    expect(lines[1]).toBe(
      '"2026-11-01T09:00:00+00:00","ada@example.com","Ada Advertiser","Deposit","Completed","40.00","0.00","Deposit 0","","","","cs_test_0","",""',
    )
  })

  it('says so when the 10,000-row limit cut the export', async () => {
    server.use(...moneyHandlers({ asked: [], total: 10_001 }))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await ledgerSection()
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    expect(
      await screen.findByText(/^Exported the first 10,000 rows of 10,001 to growletter-ledger-.*narrow the filters/),
    ).toBeInTheDocument()
    expect((await downloads[0]!.blob.text()).trim().split('\r\n')).toHaveLength(10_001)
  })

  it('says why an export failed, beside the button', async () => {
    const ledger = { asked: [] as URLSearchParams[], refuse: undefined as string | undefined }
    server.use(...moneyHandlers(ledger))
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/money')
    await ledgerSection()
    ledger.refuse = 'Two-factor authentication is required'
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    expect(await screen.findByText('Could not export: Two-factor authentication is required')).toBeInTheDocument()
    expect(downloads).toEqual([])
  })
})
