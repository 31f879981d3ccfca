// One user's page for admins: loading, failed, their money from the admin balance functions under the catalogue's
// labels, listings with analytics links, sessions, and Suspend / Reinstate behind a confirmation with a reason.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'
import { metrics } from '@/lib/metrics'

const profile = (suspended_until: string | null = null) => ({
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  user_type: 'advertiser',
  created_at: '2026-11-01T00:00:00Z',
  last_sign_in_at: null,
  suspended_until,
})

function answer(state: { suspended: string | null }, sessions: unknown[] = []) {
  server.use(
    http.get(restUrl('rpc/admin_user'), () => HttpResponse.json([profile(state.suspended)])),
    http.get(restUrl('rpc/admin_advertiser_balance'), () =>
      HttpResponse.json([{ available: 11, reserved: 22, on_hold: 33, balance: 66 }]),
    ),
    http.get(restUrl('rpc/admin_publisher_balance'), () =>
      HttpResponse.json([{ pending: 1, available: 2, requested: 3, paid: 4 }]),
    ),
    http.get(restUrl('rpc/admin_user_sessions'), () => HttpResponse.json(state.suspended ? [] : sessions)),
    http.get(restUrl('campaigns'), () =>
      HttpResponse.json([
        { id: 'c1', name: 'Morning Brew', status: 'pending_review', created_at: '2026-11-01T00:00:00Z' },
      ]),
    ),
    http.get(restUrl('audience_sources'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/admin_held_money'), () =>
      HttpResponse.json([{ subscribers: 0, on_hold: 0, pending_earnings: 0, past_screening: 0 }]),
    ),
  )
}

describe("an admin's user page", () => {
  it('shows a loading state, then the money, listings and sessions', async () => {
    signInAs('admin')
    answer({ suspended: null }, [
      {
        id: 's1',
        created_at: '2026-11-01T00:00:00Z',
        refreshed_at: null,
        aal: 'aal1',
        user_agent: 'Firefox',
        ip: '10.0.0.1',
      },
    ])
    renderRoute('/dashboard/admin/users/u1')
    expect(await screen.findByRole('status', { name: 'Loading the user' })).toBeInTheDocument()
    const money = await screen.findByTestId('user-advertiser-money')
    const under = (label: string) => within(money).getByText(label, { selector: 'dt' }).nextElementSibling
    expect(under(metrics.available.label)).toHaveTextContent('11.00')
    expect(under(metrics.reserved.label)).toHaveTextContent('22.00')
    expect(under(metrics.onHold.label)).toHaveTextContent('33.00')
    expect(under(metrics.balance.label)).toHaveTextContent('66.00')
    expect(screen.getByTestId('user-paid')).toHaveTextContent('4.00')
    // Plain words, never the raw status code.
    const newsletters = screen.getByRole('list', { name: 'Newsletters' })
    expect(newsletters).toHaveTextContent('Pending review')
    expect(newsletters).not.toHaveTextContent('pending_review')
    expect(within(newsletters).getByRole('link', { name: 'Analytics of Morning Brew' })).toHaveAttribute(
      'href',
      '/dashboard/admin/analytics/campaign/c1',
    )
    expect(screen.getByText('No sources added.')).toBeInTheDocument()
    expect(screen.getByRole('list', { name: 'Signed-in sessions' })).toHaveTextContent('password only · 10.0.0.1')
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Users' }),
    ).toHaveAttribute('href', '/dashboard/admin/users')
  })

  it('says so when the user cannot be loaded', async () => {
    signInAs('admin')
    answer({ suspended: null })
    server.use(http.get(restUrl('rpc/admin_user'), () => postgrestError(404, 'User not found', 'P0002')))
    renderRoute('/dashboard/admin/users/u1')
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found')
  })

  it('suspends only after a confirmation with a reason, then reinstates', async () => {
    signInAs('admin')
    const state = { suspended: null as string | null }
    const calls: unknown[] = []
    answer(state)
    server.use(
      http.post(restUrl('rpc/admin_set_user_suspended'), async ({ request }) => {
        const body = (await request.json()) as { p_suspended: boolean }
        calls.push(body)
        state.suspended = body.p_suspended ? '2126-11-01T00:00:00Z' : null
        return HttpResponse.json(null)
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/users/u1')
    await user.click(await screen.findByRole('button', { name: 'Suspend' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Ada Lovelace?' })
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }))
    expect(await within(dialog).findByText(/Give a reason/)).toBeInTheDocument()
    expect(calls).toEqual([])
    // Reasons pasted (click, then paste), not typed key by key: the tests are about what is sent.
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Chargebacks')
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }))
    expect(await screen.findByTestId('user-suspended')).toHaveTextContent('Suspended')
    expect(screen.getByText('No sessions: suspending signed them out everywhere.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reinstate' }))
    const again = await screen.findByRole('dialog', { name: 'Reinstate Ada Lovelace?' })
    await user.click(within(again).getByLabelText('Reason'))
    await user.paste('Bank confirmed')
    await user.click(within(again).getByRole('button', { name: 'Reinstate' }))
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeInTheDocument()
    expect(calls).toEqual([
      { p_user_id: 'u1', p_suspended: true, p_reason: 'Chargebacks' },
      { p_user_id: 'u1', p_suspended: false, p_reason: 'Bank confirmed' },
    ])
  })

  it('shows what a suspension holds, and refunds it only after a confirmation with a reason', async () => {
    signInAs('admin')
    const held = { subscribers: 2, on_hold: 20, pending_earnings: 16, past_screening: 1 }
    const calls: unknown[] = []
    answer({ suspended: '2126-11-01T00:00:00Z' })
    server.use(
      http.get(restUrl('rpc/admin_held_money'), () => HttpResponse.json([held])),
      http.post(restUrl('rpc/admin_refund_held_money'), async ({ request }) => {
        calls.push(await request.json())
        Object.assign(held, { subscribers: 0, on_hold: 0, pending_earnings: 0, past_screening: 0 })
        return HttpResponse.json({ refunded_subscribers: 2, refunded: 20 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/users/u1')
    const card = await screen.findByTestId('user-held-money')
    expect(await within(card).findByTestId('held-subscribers')).toHaveTextContent('2')
    expect(within(card).getByTestId('held-on-hold')).toHaveTextContent('20.00 credits')
    expect(within(card).getByTestId('held-pending-earnings')).toHaveTextContent('16.00 credits')
    expect(within(card).getByTestId('held-past-screening')).toHaveTextContent('1')
    await user.click(within(card).getByRole('button', { name: 'Refund held money' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund 20.00 credits held for Ada Lovelace?' })
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }))
    expect(await within(dialog).findByText(/Give a reason/)).toBeInTheDocument()
    expect(calls).toEqual([])
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Bought traffic')
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }))
    expect(await screen.findByText('Refunded 20.00 credits for 2 subscribers')).toBeInTheDocument()
    expect(calls).toEqual([{ p_user_id: 'u1', p_reason: 'Bought traffic' }])
    expect(await within(card).findByRole('button', { name: 'Refund held money' })).toBeDisabled()
  })

  it('shows no held money for an active user', async () => {
    signInAs('admin')
    answer({ suspended: null })
    renderRoute('/dashboard/admin/users/u1')
    expect(await screen.findByTestId('user-advertiser-money')).toBeInTheDocument()
    expect(screen.queryByTestId('user-held-money')).not.toBeInTheDocument()
  })
})
