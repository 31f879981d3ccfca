// The advertiser's wallet statement filtered and exported (issue 23 point 9): the Transactions card's filter bar
// (type and status with the statement's own labels, a UTC date range), its state in the URL (`wal_…`), a fresh
// first page on every change, "nothing matches" and "past the end", the database's sentence for a bad link, and
// "Export CSV" with its outcome line and the file's rows.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'
import { captureDownloads } from '../../testing/downloads'

const WALLET = '/dashboard/advertiser/wallet'

const statementRow = (i: number, total: number, over: Record<string, unknown> = {}) => ({
  id: `t${i}`,
  occurred_at: '2026-11-01T09:00:00+00:00',
  kind: 'deposit',
  status: 'completed',
  description: `Deposit ${i}`,
  amount: 40,
  refunded: 0,
  settled_at: '2026-11-01T09:00:05+00:00',
  total_count: total,
  ...over,
})

/** The statement's GET calls (query strings), and what it answers: `total` matching rows, or a refusal. */
function walletHandlers(statement: {
  asked: URLSearchParams[]
  total?: number
  refuse?: string
  row?: (i: number, total: number) => Record<string, unknown>
}) {
  return [
    http.get(restUrl('rpc/advertiser_balance'), () =>
      HttpResponse.json({ available: 30, reserved: 0, on_hold: 10, balance: 40 }),
    ),
    http.get(restUrl('deposits'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/wallet_statement'), ({ request }) => {
      const params = new URL(request.url).searchParams
      statement.asked.push(params)
      if (statement.refuse) return postgrestError(400, statement.refuse, '22023')
      const total = statement.total ?? 3
      const offset = Number(params.get('p_offset') ?? 0)
      const count = Math.max(0, Math.min(Number(params.get('p_limit') ?? 20), total - offset))
      return HttpResponse.json(
        Array.from({ length: count }, (_, i) => (statement.row ?? statementRow)(offset + i, total)),
      )
    }),
  ]
}

const filterBar = () => screen.findByRole('group', { name: 'Filter transactions' })
const search = (router: { state: { location: { search: string } } }) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search))

describe('wallet statement filters', () => {
  beforeEach(() => signInAs('advertiser'))

  it('filters by type and status with the statement’s labels, from the first page, and keeps them in the URL', async () => {
    const asked: URLSearchParams[] = []
    server.use(...walletHandlers({ asked, total: 45 }))
    const user = userEvent.setup()
    const { router } = renderRoute(`${WALLET}?wal_page=2`)
    const bar = await filterBar()
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument()
    const type = within(bar).getByRole('combobox', { name: 'Type' })
    expect(type).toHaveDisplayValue('All types')
    // Labels, never the database's codes; a charge is one kind (never its hold).
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All types', 'Charge', 'Bonus', 'Deposit', 'Release', 'Refund', 'Credit', 'Debit'])
    const status = within(bar).getByRole('combobox', { name: 'Status' })
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All statuses', 'On hold', 'Charged', 'Refunded', 'Pending', 'Completed', 'Failed', 'Canceled'])
    await user.selectOptions(type, 'Charge')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_kind')).toBe('charge'), { timeout: 5000 })
    expect(asked.at(-1)?.get('p_offset')).toBe('0')
    expect(search(router)).toEqual({ wal_type: 'charge' })
    await user.selectOptions(status, 'Refunded')
    await vi.waitFor(() => expect(asked.at(-1)?.get('p_status')).toBe('refunded'), { timeout: 5000 })
    expect(asked.at(-1)?.get('p_kind')).toBe('charge')
    expect(search(router)).toEqual({ wal_type: 'charge', wal_status: 'refunded' })
    // There is no search box on the wallet.
    expect(within(bar).queryByRole('searchbox')).toBeNull()
  })

  it('opens a linked view with its filters and page, and sends them to the database (never a search)', async () => {
    const asked: URLSearchParams[] = []
    server.use(...walletHandlers({ asked, total: 45 }))
    renderRoute(
      `${WALLET}?wal_type=charge&wal_status=on_hold&wal_from=2026-11-01&wal_to=2026-11-30&wal_page=2&wal_q=ignored`,
    )
    const bar = await filterBar()
    expect(Object.fromEntries(asked[0]!)).toEqual({
      p_kind: 'charge',
      p_status: 'on_hold',
      p_from: '2026-11-01',
      p_to: '2026-11-30',
      p_limit: '20',
      p_offset: '20',
    })
    expect(within(bar).getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('Charge')
    expect(within(bar).getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('On hold')
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01')
    expect(screen.getByLabelText('To')).toHaveValue('2026-11-30')
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument()
  })

  it('narrows by dates from the picker, refuses a reversed range beside the fields, and clears back to any date', async () => {
    const asked: URLSearchParams[] = []
    server.use(...walletHandlers({ asked }))
    const user = userEvent.setup()
    const { router } = renderRoute(WALLET)
    await screen.findByRole('table', { name: 'Wallet transactions' })
    await user.click(screen.getByRole('button', { name: 'Filter by date' }))
    await vi.waitFor(() => expect(asked.at(-1)?.has('p_from')).toBe(true), { timeout: 5000 })
    expect(search(router)).toEqual({ wal_from: asked.at(-1)!.get('p_from'), wal_to: asked.at(-1)!.get('p_to') })
    const from = screen.getByLabelText('From')
    await user.clear(from)
    await user.type(from, '2999-01-01')
    expect(screen.getByRole('alert')).toHaveTextContent('The start date must be on or before the end date')
    expect(asked.some((p) => p.get('p_from') === '2999-01-01')).toBe(false)
    await user.click(screen.getByRole('button', { name: 'Any date' }))
    await vi.waitFor(() => expect(router.state.location.search).toBe(''), { timeout: 5000 })
    expect(screen.queryByLabelText('From')).toBeNull()
  })

  it('says when nothing matches the filters, keeps the filters to change, and offers no export', async () => {
    server.use(...walletHandlers({ asked: [], total: 0 }))
    renderRoute(`${WALLET}?wal_type=refund`)
    expect(await screen.findByText('No transactions match these filters.')).toBeInTheDocument()
    expect(within(await filterBar()).getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('Refund')
    expect(screen.queryByRole('button', { name: 'Export transactions as CSV' })).toBeNull()
    expect(screen.queryByText(/^No transactions yet/)).toBeNull()
  })

  it('shows no filters on a wallet with nothing in it yet', async () => {
    server.use(...walletHandlers({ asked: [], total: 0 }))
    renderRoute(WALLET)
    expect(await screen.findByText(/^No transactions yet\./)).toBeInTheDocument()
    expect(screen.queryByRole('group', { name: 'Filter transactions' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Export transactions as CSV' })).toBeNull()
  })

  it('says when a linked page is past the end of the list, and goes back to the first page', async () => {
    server.use(...walletHandlers({ asked: [], total: 3 }))
    const user = userEvent.setup()
    const { router } = renderRoute(`${WALLET}?wal_type=deposit&wal_page=4`)
    await user.click(await screen.findByRole('button', { name: 'Go to the first page' }))
    expect(await screen.findByText('Deposit 2')).toBeInTheDocument()
    expect(router.state.location.search).toBe('?wal_type=deposit')
  })

  it("shows the database's sentence beside the filters when it refuses one (a hand-edited link)", async () => {
    server.use(...walletHandlers({ asked: [], refuse: 'Choose a transaction type from the list' }))
    renderRoute(`${WALLET}?wal_type=hold`)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load your transactions')
    expect(alert).toHaveTextContent('Choose a transaction type from the list')
    expect(await filterBar()).toBeInTheDocument()
  })
})

describe('wallet statement export', () => {
  const downloads = captureDownloads()
  beforeEach(() => signInAs('advertiser'))

  it('exports the current filters as CSV in the table’s words, formula-safe, and says how many rows', async () => {
    const asked: URLSearchParams[] = []
    const rows = [
      statementRow(0, 3, {
        kind: 'charge',
        status: 'refunded',
        amount: -35,
        refunded: 35,
        description: 'Subscriber to Daily Brief — refunded: fraud',
        settled_at: '2026-11-08T12:00:00+00:00',
        subscriber_email: 'reader@example.com',
        source_name: 'Growth Tweets',
        reference: 'subscription:s1',
      }),
      statementRow(1, 3, {
        kind: 'charge',
        status: 'on_hold',
        amount: -12.5,
        description: '=HYPERLINK("http://evil.example")',
        settled_at: null,
      }),
      statementRow(2, 3, {
        kind: 'deposit',
        status: 'completed',
        amount: 135,
        description: 'Deposit',
        reference: 'pi_test_123',
      }),
    ]
    server.use(...walletHandlers({ asked, total: 3, row: (i) => rows[i]! }))
    const user = userEvent.setup()
    renderRoute(`${WALLET}?wal_type=charge&wal_from=2026-11-01&wal_to=2026-11-30&wal_page=1`)
    await screen.findByRole('table', { name: 'Wallet transactions' })
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    const status = await screen.findByText(/^Exported 3 rows to growletter-wallet-\d{4}-\d{2}-\d{2}\.csv\.$/)
    expect(status).toHaveAttribute('role', 'status')
    // The same filters, up to 10,000 rows from the first.
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({
      p_kind: 'charge',
      p_from: '2026-11-01',
      p_to: '2026-11-30',
      p_limit: '10000',
      p_offset: '0',
    })
    expect(downloads).toHaveLength(1)
    expect(downloads[0]!.name).toBe(`growletter-wallet-${new Date().toISOString().slice(0, 10)}.csv`)
    const lines = (await downloads[0]!.blob.text()).split('\r\n')
    expect(lines).toEqual([
      '"Date (UTC)","Type","Description","Subscriber","Source","Reference","Status","Amount (credits)","Refunded (credits)","Settled (UTC)"',
      // Issue 38: the subscriber, source and reference to reconcile each row with, not only "Subscriber to …".
      '"2026-11-01T09:00:00+00:00","Charge","Subscriber to Daily Brief — refunded: fraud","reader@example.com","Growth Tweets","subscription:s1","Refunded","-35.00","35.00","2026-11-08T12:00:00+00:00"',
      '"2026-11-01T09:00:00+00:00","Charge","\'=HYPERLINK(""http://evil.example"")","","","","On hold","-12.50","0.00",""',
      '"2026-11-01T09:00:00+00:00","Deposit","Deposit","","","pi_test_123","Completed","135.00","0.00","2026-11-01T09:00:05+00:00"',
      '',
    ])
    // A new filter clears the last export's line.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'On hold')
    await vi.waitFor(() => expect(screen.queryByText(/^Exported/)).toBeNull(), { timeout: 5000 })
  })

  it('says so when the 10,000-row limit cut the export', async () => {
    server.use(...walletHandlers({ asked: [], total: 10_001 }))
    const user = userEvent.setup()
    renderRoute(WALLET)
    await screen.findByRole('table', { name: 'Wallet transactions' })
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    expect(
      await screen.findByText(/^Exported the first 10,000 rows of 10,001 to growletter-wallet-.*narrow the filters/),
    ).toBeInTheDocument()
    expect((await downloads[0]!.blob.text()).trim().split('\r\n')).toHaveLength(10_001)
  })

  it('says why an export failed, beside the button', async () => {
    const statement = { asked: [] as URLSearchParams[], refuse: undefined as string | undefined }
    server.use(...walletHandlers(statement))
    const user = userEvent.setup()
    renderRoute(WALLET)
    await screen.findByRole('table', { name: 'Wallet transactions' })
    statement.refuse = 'Your session has ended. Sign in again.'
    await user.click(screen.getByRole('button', { name: 'Export transactions as CSV' }))
    expect(await screen.findByText('Could not export: Your session has ended. Sign in again.')).toBeInTheDocument()
    expect(downloads).toEqual([])
  })
})
