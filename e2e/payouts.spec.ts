/**
 * Payouts through Stripe Connect, end to end (issue 24): a new influencer registers and confirms by email, clicks to
 * Payouts, is told why a payout cannot be requested yet, sets up payouts on the local Connect stand-in's onboarding
 * page ("Finish onboarding" sends the signed account.updated event to connect-webhook before the browser returns),
 * and sees the account ready. With earnings available, the payout they request is sent as a Stripe transfer by
 * send-payouts (called by the database through pg_net) and its tr_… reference appears in the history.
 */
import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiKeys } from '../embedded-backend/keys'
import { PAYOUT_ACCOUNT_MESSAGES } from '../supabase/functions/_shared/rules/payout'
import { E2E } from './ports'
import { AuthPages, uniqueEmail } from './pages/auth'
import { DevMailbox, verifyLinkIn } from './pages/mailbox'
import { openFromSidebar } from './pages/visit'

/** Earnings that passed screening, credited with the service role (how they are earned is money.spec.ts's story). */
async function credit(request: APIRequestContext, userId: string, amount: number) {
  const { serviceRoleKey } = await apiKeys()
  const response = await request.post(`${E2E.apiUrl}/rest/v1/rpc/increment_wallet_balance`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
    data: { user_id: userId, amount },
  })
  expect(response.ok(), await response.text()).toBe(true)
}

test('a new influencer sets up payouts on the onboarding page, sees it ready, and a payout arrives with its transfer reference', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const auth = new AuthPages(page)
  const email = uniqueEmail('payee')
  await auth.register({ role: 'publisher', firstName: 'Pia', lastName: 'Payee', email, password: 'a-long-secret-1' })
  const confirmation = await new DevMailbox(request).waitForEmail(email, /Confirm your/i)
  await page.goto(verifyLinkIn(confirmation))
  await expect(page).toHaveURL(/\/dashboard\/publisher$/)

  await openFromSidebar(page, '/dashboard/publisher/payouts', 'Payouts')
  const setup = page.getByRole('region', { name: 'Set up payouts' })
  await expect(setup.getByTestId('payout-account-state')).toHaveText('Not set up')
  await expect(page.getByTestId('payout-blocked-reason')).toHaveText(PAYOUT_ACCOUNT_MESSAGES.not_set_up)
  await expect(page.getByTestId('open-payout-dialog')).toBeDisabled()

  await setup.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Set up payouts with Growletter' })).toBeVisible()
  expect(page.url()).toMatch(new RegExp(`^${E2E.apiUrl}/checkout/connect/acct_`))
  await page.getByRole('button', { name: 'Finish onboarding' }).click()
  await expect(page).toHaveURL(/\/dashboard\/publisher\/payouts$/)
  await expect(setup.getByTestId('payout-account-state')).toHaveText('Ready')
  await expect(page.getByTestId('payout-blocked-reason')).toBeHidden()

  const userId = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return (JSON.parse(localStorage.getItem(key)!) as { user: { id: string } }).user.id
  })
  await credit(request, userId, 64.5)
  await page.reload()
  await expect(page.getByTestId('payout-available')).toHaveText('64.50 credits')
  await page.getByTestId('open-payout-dialog').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByTestId('confirm-payout-request').click()
  await expect(dialog).toBeHidden()
  // Sent right after the request: the history follows it until Stripe's transfer is recorded.
  const row = page.getByTestId('payout-row').filter({ hasText: '64.50 credits' })
  await expect(row).toContainText('Paid', { timeout: 60_000 })
  await expect(row).toContainText(/Transfer reference tr_[A-Za-z0-9]+/)
  await expect(page.getByTestId('payout-paid')).toHaveText('64.50 credits')
})
