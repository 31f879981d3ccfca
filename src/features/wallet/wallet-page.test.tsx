// The advertiser's wallet: the four parts of the balance from advertiser_balance() (available + reserved + on
// hold = balance, said as such) and the statement from wallet_statement (one row per charge: on hold, charged,
// or refunded with its amount), paged by the database.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'

const balanceHandler = (parts = { available: 30, reserved: 35, on_hold: 70, balance: 135 }) =>
  http.get(restUrl('rpc/advertiser_balance'), () => HttpResponse.json(parts))
const noDeposits = http.get(restUrl('deposits'), () => HttpResponse.json([]))

type Row = { kind: string; status: string; amount: number; refunded?: number; description?: string }
const statementRow = (i: number, row: Row, total: number) => ({
  id: `t${i}`,
  occurred_at: new Date(Date.UTC(2026, 10, 1, 12, 0, 0) - i * 60_000).toISOString(),
  kind: row.kind,
  status: row.status,
  description: row.description ?? `Row ${i}`,
  amount: row.amount,
  refunded: row.refunded ?? 0,
  settled_at: row.status === 'charged' || row.status === 'refunded' ? '2026-11-08T12:00:00Z' : null,
  total_count: total,
})
const statement = (rows: Row[]) =>
  http.get(restUrl('rpc/wallet_statement'), async ({ request }) => {
    const { p_limit, p_offset } = rpcArgs(request) as { p_limit: number; p_offset: number }
    return HttpResponse.json(
      rows.slice(p_offset, p_offset + p_limit).map((r, i) => statementRow(p_offset + i, r, rows.length)),
    )
  })

describe('advertiser wallet', () => {
  it('shows loading placeholders first', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/advertiser_balance'), () => new Promise(() => {})),
      http.get(restUrl('rpc/wallet_statement'), () => new Promise(() => {})),
      noDeposits,
    )
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByRole('status', { name: 'Loading transactions' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading wallet' })).toBeInTheDocument()
  })

  it('shows the four parts of the balance and says they add up', async () => {
    signInAs('advertiser')
    server.use(balanceHandler(), statement([]), noDeposits)
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByTestId('wallet-available')).toHaveTextContent('30.00 credits')
    expect(screen.getByTestId('wallet-reserved')).toHaveTextContent('35.00 credits')
    expect(screen.getByTestId('wallet-held')).toHaveTextContent('70.00 credits')
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('135.00 credits')
    expect(screen.getByTestId('wallet-sum')).toHaveTextContent(
      'Available 30.00 credits + reserved 35.00 credits + on hold 70.00 credits = balance 135.00 credits',
    )
  })

  it('says when there are no transactions, and offers the deposit dialog', async () => {
    signInAs('advertiser')
    server.use(balanceHandler({ available: 0, reserved: 0, on_hold: 0, balance: 0 }), statement([]), noDeposits)
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByText(/^No transactions yet./)).toBeInTheDocument()
    expect(await screen.findByTestId('wallet-available')).toHaveTextContent('0.00 credits')
    expect(screen.getByRole('button', { name: 'Add funds' })).toBeInTheDocument()
    expect(screen.queryByTestId('deposit-status')).not.toBeInTheDocument()
  })

  it('says so when the wallet or the statement cannot be loaded', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('rpc/advertiser_balance'), () => postgrestError(500, 'balance offline')),
      http.get(restUrl('rpc/wallet_statement'), () => postgrestError(500, 'ledger offline')),
      noDeposits,
    )
    renderRoute('/dashboard/advertiser/wallet')
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2))
    const [wallet, ledger] = screen.getAllByRole('alert')
    expect(wallet).toHaveTextContent('Could not load your wallet')
    expect(ledger).toHaveTextContent('Could not load your transactions')
    expect(ledger).toHaveTextContent('ledger offline')
  })

  it('reads like a bank statement: a charge on hold, charged, or refunded with its amount', async () => {
    signInAs('advertiser')
    server.use(
      balanceHandler(),
      noDeposits,
      statement([
        { kind: 'charge', status: 'on_hold', amount: -35, description: 'Subscriber to Daily Brief' },
        { kind: 'charge', status: 'charged', amount: -35, description: 'Subscriber to Daily Brief' },
        {
          kind: 'charge',
          status: 'refunded',
          amount: -35,
          refunded: 35,
          description: 'Subscriber to Daily Brief — refunded: fraud',
        },
        { kind: 'deposit', status: 'completed', amount: 135, description: 'Deposit' },
      ]),
    )
    renderRoute('/dashboard/advertiser/wallet')
    const table = await screen.findByRole('table', { name: 'Wallet transactions' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(4)
    expect(rows[0]).toHaveTextContent('Charge')
    expect(rows[0]).toHaveTextContent('On hold')
    expect(rows[0]).toHaveTextContent('-35.00 credits')
    expect(rows[1]).toHaveTextContent('Charged')
    expect(rows[2]).toHaveTextContent('Refunded')
    expect(rows[2]).toHaveTextContent('35.00 credits refunded')
    expect(rows[3]).toHaveTextContent('Deposit')
    expect(rows[3]).toHaveTextContent('+135.00 credits')
    // Never a separate debit, hold, release or 0.00 row: the database folded them into the charge.
    expect(table).not.toHaveTextContent(/Debit|Release|0\.00 credits refunded/)
  })

  it('pages 20 rows at a time through the database', async () => {
    signInAs('advertiser')
    const rows = Array.from({ length: 45 }, () => ({ kind: 'deposit', status: 'completed', amount: 10 }))
    const asked: Array<[number, number]> = []
    server.use(
      balanceHandler(),
      noDeposits,
      http.get(restUrl('rpc/wallet_statement'), async ({ request }) => {
        const { p_limit, p_offset } = rpcArgs(request) as { p_limit: number; p_offset: number }
        asked.push([p_offset, p_limit])
        return HttpResponse.json(
          rows.slice(p_offset, p_offset + p_limit).map((r, i) => statementRow(p_offset + i, r, rows.length)),
        )
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Row 20')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Row 44')).toBeInTheDocument()
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(6))
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
    expect(asked).toEqual([
      [0, 20],
      [20, 20],
      [40, 20],
    ])
  })
})
