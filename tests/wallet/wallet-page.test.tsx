import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../msw/server'
import { renderRoute } from '../render-route'
import { ADVERTISER, countedJson, postgrestError, signInAs } from '../campaigns/signed-in'

const transaction = (i: number) => ({
  id: `t${i}`,
  amount: i % 2 ? -2 : 10,
  type: i % 2 ? 'hold' : 'deposit',
  status: i % 2 ? 'pending' : 'completed',
  description: `Row ${i}`,
  created_at: new Date(Date.UTC(2026, 10, 1, 12, 0, 0) - i * 60_000).toISOString(),
})

const walletSummary = http.get(restUrl('wallets'), () => HttpResponse.json([{ balance: 110, held: 4, available: 106 }]))
const noDeposits = http.get(restUrl('deposits'), () => HttpResponse.json([]))

describe('advertiser wallet', () => {
  it('shows loading placeholders first', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('wallets'), () => new Promise(() => {})),
      http.get(restUrl('wallet_transactions'), () => new Promise(() => {})),
      noDeposits,
    )
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByRole('status', { name: 'Loading transactions' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading wallet' })).toBeInTheDocument()
  })

  it('shows the balance, says when there are no transactions, and offers the deposit dialog', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('wallets'), () => HttpResponse.json([])),
      http.get(restUrl('wallet_transactions'), () => countedJson([], 0)),
      noDeposits,
    )
    renderRoute('/dashboard/advertiser/wallet')
    expect(await screen.findByText(/^No transactions yet./)).toBeInTheDocument()
    // No wallet row yet reads as zero, not as an error.
    expect(await screen.findByTestId('wallet-available')).toHaveTextContent('0.00 credits')
    expect(screen.getByRole('button', { name: 'Add funds' })).toBeInTheDocument()
    expect(screen.queryByTestId('deposit-status')).not.toBeInTheDocument()
  })

  it('says so when the ledger cannot be loaded', async () => {
    signInAs('advertiser')
    server.use(
      walletSummary,
      noDeposits,
      http.get(restUrl('wallet_transactions'), () => postgrestError(500, 'ledger offline')),
    )
    renderRoute('/dashboard/advertiser/wallet')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load your transactions')
    expect(alert).toHaveTextContent('ledger offline')
  })

  it('lists 20 transactions a page with type, status, description and amount, and pages through them', async () => {
    signInAs('advertiser')
    const all = Array.from({ length: 45 }, (_, i) => transaction(i))
    const asked: { offset: string | null; limit: string | null; user: string | null; order: string | null }[] = []
    server.use(
      walletSummary,
      noDeposits,
      http.get(restUrl('wallet_transactions'), ({ request }) => {
        const params = new URL(request.url).searchParams
        asked.push({
          offset: params.get('offset'),
          limit: params.get('limit'),
          user: params.get('user_id'),
          order: params.get('order'),
        })
        const offset = Number(params.get('offset') ?? 0)
        return countedJson(all.slice(offset, offset + Number(params.get('limit'))), all.length, offset)
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/wallet')

    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByTestId('wallet-available')).toHaveTextContent('106.00 credits')
    expect(screen.getByTestId('wallet-held')).toHaveTextContent('4.00 credits')
    const table = screen.getByRole('table', { name: 'Wallet transactions' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(20)
    expect(rows[0]).toHaveTextContent('Deposit')
    expect(rows[0]).toHaveTextContent('Row 0')
    expect(rows[0]).toHaveTextContent('Completed')
    expect(rows[0]).toHaveTextContent('+10.00 credits')
    expect(rows[1]).toHaveTextContent('Hold')
    expect(rows[1]).toHaveTextContent('Pending')
    expect(rows[1]).toHaveTextContent('-2.00 credits')
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Row 20')).toBeInTheDocument()
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Row 44')).toBeInTheDocument()
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(6))
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()

    expect(asked.map((a) => [a.offset, a.limit])).toEqual([
      ['0', '20'],
      ['20', '20'],
      ['40', '20'],
    ])
    expect(asked[0].user).toBe(`eq.${ADVERTISER.id}`)
    expect(asked[0].order).toBe('created_at.desc,id.desc')

    // Sorting is the database's: a click on Amount asks for the first page again, ordered by amount.
    await user.click(screen.getByRole('button', { name: 'Amount' }))
    await waitFor(() => expect(asked.at(-1)?.order).toMatch(/^amount\.(asc|desc),id\.(asc|desc)$/))
    expect(asked.at(-1)?.offset).toBe('0')
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument()
  })
})
