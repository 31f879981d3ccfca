/**
 * Money that comes back, end to end (issue 37): a new influencer is paid through the local Connect stand-in, the
 * platform then reverses the transfer at "Stripe"; transfer.reversed reaches connect-webhook, and the influencer's
 * history says Reversed with the money available again, and an email says so. Someone also sends the influencer
 * money straight from Stripe; the admin clicks to Money, reconciles with Stripe, and sees that transfer as one no
 * payout accounts for — while the reversed payout, recorded as Stripe has it, is no difference.
 */
import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiKeys } from '../embedded-backend/keys'
import { E2E } from './ports'
import { logInAsAdmin } from './pages/admin'
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

/** Stripe's API on the stand-in, with a test key: what the platform (or Stripe's dashboard) does there. */
async function stripe(request: APIRequestContext, path: string, form: Record<string, string>) {
  const response = await request.post(`${E2E.apiUrl}/checkout/v1/${path}`, {
    headers: { Authorization: 'Bearer sk_test_local_checkout' },
    form,
  })
  expect(response.ok(), await response.text()).toBe(true)
  return (await response.json()) as { id: string }
}

test('a reversed payout comes back to the influencer, and the admin reconciles payouts with Stripe by clicking', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const auth = new AuthPages(page)
  const email = uniqueEmail('reversed')
  await auth.register({ role: 'publisher', firstName: 'Rey', lastName: 'Versal', email, password: 'a-long-secret-1' })
  const mailbox = new DevMailbox(request)
  await page.goto(verifyLinkIn(await mailbox.waitForEmail(email, /Confirm your/i)))
  await expect(page).toHaveURL(/\/dashboard\/publisher$/)

  await openFromSidebar(page, '/dashboard/publisher/payouts', 'Payouts')
  const setup = page.getByRole('region', { name: 'Set up payouts' })
  await setup.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Set up payouts with Growletter' })).toBeVisible()
  const account = /\/checkout\/connect\/(acct_[A-Za-z0-9]+)\//.exec(page.url())?.[1]
  expect(account).toBeTruthy()
  await page.getByRole('button', { name: 'Finish onboarding' }).click()
  await expect(setup.getByTestId('payout-account-state')).toHaveText('Ready')

  const userId = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return (JSON.parse(localStorage.getItem(key)!) as { user: { id: string } }).user.id
  })
  await credit(request, userId, 60)
  await page.reload()
  await page.getByTestId('open-payout-dialog').click()
  await page.getByRole('dialog').getByTestId('confirm-payout-request').click()
  const row = page.getByTestId('payout-row').filter({ hasText: '60.00 credits' })
  await expect(row).toContainText('Paid', { timeout: 60_000 })
  const reference = (await row.getByText(/^tr_/).textContent())!.trim()
  await expect(page.getByTestId('payout-available')).toHaveText('0.00 credits')

  // The platform takes the money back at Stripe: transfer.reversed, signed, reaches connect-webhook.
  await stripe(request, `transfers/${reference}/reversals`, {})
  await expect
    .poll(
      async () => {
        await page.reload()
        return page.getByTestId('payout-row').filter({ hasText: reference }).textContent()
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toContain('Reversed')
  await expect(row).toContainText(
    'Stripe reversed 60.00 credits of this transfer: the money came back and is available',
  )
  await expect(page.getByTestId('payout-available')).toHaveText('60.00 credits')
  await expect(page.getByTestId('payout-paid')).toHaveText('0.00 credits')
  const reversedEmail = await mailbox.waitForEmail(email, /^Your payout of 60\.00 credits was reversed$/)
  expect(reversedEmail.text).toContain(reference)

  // Money sent to the influencer straight from Stripe, that no payout here accounts for.
  const direct = await stripe(request, 'transfers', { amount: '1234', currency: 'usd', destination: account! })

  const admin = await (await browser.newContext()).newPage()
  await logInAsAdmin(admin)
  await openFromSidebar(admin, '/dashboard/admin/money', 'Money')
  await admin.getByRole('button', { name: 'Reconcile with Stripe' }).click()
  const result = admin.getByRole('region', { name: 'Reconciliation with Stripe' })
  await expect(result.getByTestId('reconcile-summary')).toContainText(
    /^Checked \d+ payouts? against \d+ Stripe transfers?/,
  )
  const mine = result.getByTestId('reconcile-difference').filter({ hasText: 'Rey Versal' })
  await expect(mine).toHaveCount(1)
  await expect(mine).toContainText('Transfer without a paid payout')
  await expect(mine).toContainText(direct.id)
  await expect(mine).toContainText('12.34 credits transferred')
  await expect(result).not.toContainText(reference)
  // Its own contexts end with it (Playwright closes only the `page` fixture's): a tab left open lives, and may poll,
  // until the worker ends.
  await admin.context().close()
})
