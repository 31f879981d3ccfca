// The publisher's payouts page and its Stripe payout account: each state of "Set up payouts" (not set up, pending
// verification, ready, action needed, rejected), the request button disabled with the database's reason until the
// account is ready, onboarding opened through create-connect-onboarding, automatic payouts, and the history's
// statuses, transfer references, failure reasons and dates.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { PAYOUT_ACCOUNT_MESSAGES } from '@rules/payout'
import { functionsUrl, restUrl, server } from '../../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../../testing/render-route'

const PUBLISHER = { id: '00000000-0000-4000-a000-000000000003', email: 'publisher@growletter.test' }

type AccountRow = { state: string; requirements_due: string[]; disabled_reason: string | null; auto_payout: boolean }
const accountRow = (state: string, extra: Partial<AccountRow> = {}): AccountRow => ({
  state,
  requirements_due: [],
  disabled_reason: null,
  auto_payout: false,
  ...extra,
})

function payoutsPage({
  account = null as AccountRow | null,
  payouts = [] as Record<string, unknown>[],
  available = 80,
} = {}) {
  storeTestSession({ ...PUBLISHER, userType: 'publisher' })
  const calls: { fn: string; body: unknown }[] = []
  let current = account
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'publisher' }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
    http.get(restUrl('rpc/publisher_balance'), () =>
      HttpResponse.json({ pending: 0, available, requested: 0, paid: 0 }),
    ),
    http.get(restUrl('payout_requests'), () => HttpResponse.json(payouts)),
    http.get(restUrl('payout_accounts'), () => HttpResponse.json(current ? [current] : [])),
    http.post(functionsUrl('create-connect-onboarding'), async ({ request }) => {
      calls.push({ fn: 'create-connect-onboarding', body: await request.json() })
      return HttpResponse.json({ url: 'http://127.0.0.1:54321/checkout/connect/acct_1Test/link1' })
    }),
    http.post(restUrl('rpc/set_auto_payout'), async ({ request }) => {
      const body = (await request.json()) as { p_enabled: boolean }
      calls.push({ fn: 'set_auto_payout', body })
      current = { ...current!, auto_payout: body.p_enabled }
      return HttpResponse.json(body.p_enabled)
    }),
  )
  renderRoute('/dashboard/publisher/payouts')
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

const setup = () => screen.findByRole('region', { name: 'Set up payouts' })

describe('payouts page: "Set up payouts"', () => {
  it('not set up: explains Stripe onboarding, disables the request with the reason, and opens onboarding', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const calls = payoutsPage()
    const section = await setup()
    expect(await within(section).findByTestId('payout-account-state')).toHaveTextContent('Not set up')
    expect(section).toHaveTextContent('Stripe asks for your identity, bank account and tax details')
    const request = await screen.findByRole('button', { name: 'Request a payout' })
    expect(request).toBeDisabled()
    expect(request).toHaveAccessibleDescription(PAYOUT_ACCOUNT_MESSAGES.not_set_up)
    await userEvent.click(within(section).getByRole('button', { name: 'Set up payouts' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1:54321/checkout/connect/acct_1Test/link1'))
    expect(calls).toEqual([{ fn: 'create-connect-onboarding', body: {} }])
  })

  it('onboarding started but not finished: offers to resume it', async () => {
    payoutsPage({ account: accountRow('not_set_up', { requirements_due: ['external_account'] }) })
    const section = await setup()
    expect(await within(section).findByRole('button', { name: 'Resume onboarding' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Request a payout' })).toHaveAccessibleDescription(
      PAYOUT_ACCOUNT_MESSAGES.not_set_up,
    )
  })

  it('pending verification: says Stripe is checking, and the request waits for it', async () => {
    payoutsPage({ account: accountRow('pending_verification') })
    const section = await setup()
    expect(await within(section).findByTestId('payout-account-state')).toHaveTextContent('Pending verification')
    expect(section).toHaveTextContent('Stripe has your details and is verifying them.')
    expect(await screen.findByTestId('payout-blocked-reason')).toHaveTextContent(
      PAYOUT_ACCOUNT_MESSAGES.pending_verification,
    )
    expect(screen.getByRole('button', { name: 'Request a payout' })).toBeDisabled()
  })

  it('action needed: asks to continue on Stripe; a rejected account says so', async () => {
    payoutsPage({ account: accountRow('action_needed', { disabled_reason: 'rejected.other' }) })
    const section = await setup()
    expect(await within(section).findByTestId('payout-account-state')).toHaveTextContent('Action needed')
    expect(within(section).getByRole('button', { name: 'Continue on Stripe' })).toBeEnabled()
    expect(section).toHaveTextContent('Stripe declined this payout account.')
    expect(screen.getByRole('button', { name: 'Request a payout' })).toHaveAccessibleDescription(
      PAYOUT_ACCOUNT_MESSAGES.action_needed,
    )
  })

  it('ready: the request opens, and automatic payouts can be turned on', async () => {
    const calls = payoutsPage({ account: accountRow('ready') })
    const section = await setup()
    expect(await within(section).findByTestId('payout-account-state')).toHaveTextContent('Ready')
    expect(within(section).getByRole('button', { name: 'Update payout details' })).toBeEnabled()
    expect(screen.queryByTestId('payout-blocked-reason')).toBeNull()
    expect(await screen.findByRole('button', { name: 'Request a payout' })).toBeEnabled()
    const auto = within(section).getByRole('checkbox', {
      name: 'Pay me automatically whenever 50 credits or more are available',
    })
    expect(auto).not.toBeChecked()
    await userEvent.click(auto)
    await waitFor(() => expect(auto).toBeChecked())
    expect(calls).toEqual([{ fn: 'set_auto_payout', body: { p_enabled: true } }])
    expect(await screen.findByText('Automatic payouts on')).toBeInTheDocument()
  })

  it('history: status, transfer reference, Stripe’s reason and dates in the app’s one format', async () => {
    payoutsPage({
      account: accountRow('ready'),
      payouts: [
        {
          id: 'p3',
          amount: 70,
          status: 'failed',
          created_at: '2026-11-03T10:00:00Z',
          paid_at: null,
          failed_at: '2026-11-03T10:01:00Z',
          transfer_reference: null,
          failure_reason: 'Your destination account needs transfers enabled',
        },
        {
          id: 'p2',
          amount: 60,
          status: 'paid',
          created_at: '2026-11-02T10:00:00Z',
          paid_at: '2026-11-02T10:00:30Z',
          failed_at: null,
          transfer_reference: 'tr_1LocalRef',
          failure_reason: null,
        },
      ],
    })
    const [failed, paid] = await screen.findAllByTestId('payout-row')
    expect(within(failed!).getByText('Failed')).toBeInTheDocument()
    expect(failed).toHaveTextContent(
      'Stripe refused the transfer: Your destination account needs transfers enabled. The amount is available again.',
    )
    expect(failed).toHaveTextContent(/Requested Nov 3, 2026, \d+:\d\d [AP]M · failed Nov 3, 2026/)
    expect(within(paid!).getByText('Paid')).toBeInTheDocument()
    expect(paid).toHaveTextContent('Transfer reference tr_1LocalRef')
    expect(paid).toHaveTextContent(/Requested Nov 2, 2026, \d+:\d\d [AP]M · paid Nov 2, 2026/)
  })

  it('history: a payout not sent because the account was no longer ready, and one Stripe reversed, say so', async () => {
    const row = { paid_at: null, failed_at: null, transfer_reference: null, failure_reason: null, reversed_at: null }
    payoutsPage({
      account: accountRow('action_needed'),
      payouts: [
        {
          ...row,
          id: 'p5',
          amount: 60,
          status: 'failed',
          created_at: '2026-11-05T10:00:00Z',
          failed_at: '2026-11-05T10:01:00Z',
          failure_reason: PAYOUT_ACCOUNT_MESSAGES.action_needed,
          failed_before_transfer: true,
          amount_reversed: 0,
        },
        {
          ...row,
          id: 'p4',
          amount: 60,
          status: 'reversed',
          created_at: '2026-11-04T10:00:00Z',
          paid_at: '2026-11-04T10:00:30Z',
          transfer_reference: 'tr_1Reversed',
          failed_before_transfer: false,
          amount_reversed: 60,
          reversed_at: '2026-11-04T12:00:00Z',
        },
      ],
    })
    const [notSent, reversed] = await screen.findAllByTestId('payout-row')
    expect(notSent).toHaveTextContent(
      'Not sent: Stripe needs more information before you can be paid. Open "Set up payouts" and finish what it asks. The amount is available again.',
    )
    expect(notSent).not.toHaveTextContent('Stripe refused')
    expect(within(reversed!).getByText('Reversed')).toBeInTheDocument()
    expect(reversed).toHaveTextContent('Transfer reference tr_1Reversed')
    expect(reversed).toHaveTextContent(/· paid Nov 4, 2026, \d+:\d\d [AP]M · reversed Nov 4, 2026/)
    expect(reversed).toHaveTextContent(
      'Stripe reversed 60.00 credits of this transfer: the money came back and is available again.',
    )
  })
})
