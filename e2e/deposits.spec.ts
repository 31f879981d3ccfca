/**
 * Money in, as an advertiser does it: the deposit dialog on the wallet, the local test checkout (which
 * plays Stripe: a declined card, Pay, Cancel), the signed webhook, and the wallet after the return:
 * +25.00 exactly once with a receipt; a cancelled checkout changes nothing and is closed.
 */
import { expect, test, type Page } from '@playwright/test'
import { AdvertiserDashboard, DEMO_ADVERTISER } from './pages/advertiser'
import { E2E } from './ports'
import { apiKeys } from '../embedded-backend/keys'

const credits = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''))
const shown = (n: number) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} credits`

async function openWallet(page: Page) {
  const advertiser = new AdvertiserDashboard(page)
  await advertiser.logIn()
  await page.getByRole('navigation', { name: 'Advertiser dashboard' }).getByRole('link', { name: 'Wallet' }).click()
  await expect(page.getByRole('heading', { name: 'Wallet', level: 1 })).toBeVisible()
  await expect(page.getByTestId('wallet-total')).toHaveText(/credits$/)
  return credits(await page.getByTestId('wallet-total').textContent())
}

/** Fills the deposit dialog and continues to the checkout; answers the checkout session id. */
async function startDeposit(page: Page, amount: string) {
  await page.getByRole('button', { name: 'Add funds' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add funds' })
  await dialog.getByLabel('Amount (credits)').fill(amount)
  await expect(dialog.getByTestId('deposit-charge')).toContainText(
    `You will be charged $${Number(amount).toFixed(2)} (USD)`,
  )
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(new RegExp(`^${E2E.apiUrl}/checkout/cs_test_\\w+$`))
  await expect(page.getByText('Pay Growletter')).toBeVisible()
  await expect(page.getByTestId('checkout-amount')).toHaveText(`$${Number(amount).toFixed(2)}`)
  await expect(page.getByTestId('checkout-email')).toHaveValue(DEMO_ADVERTISER)
  return new URL(page.url()).pathname.split('/').pop()!
}

const depositRows = (page: Page, amount: string) =>
  page
    .getByRole('table', { name: 'Wallet transactions' })
    .getByRole('row')
    .filter({ hasText: 'Deposit' })
    .filter({ hasText: `+${amount} credits` })

test('an advertiser deposits 25 through the local checkout and sees +25.00 exactly once', async ({ page }) => {
  const before = await openWallet(page)
  await page.getByRole('button', { name: 'Add funds' }).click()
  // The dialog refuses a bad amount before any checkout starts.
  await page.getByLabel('Amount (credits)').fill('9.999')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('The minimum deposit is 10 credits.')).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()

  const sessionId = await startDeposit(page, '25')
  await page.getByRole('button', { name: 'Pay with a declined card' }).click()
  await expect(page.getByTestId('checkout-error')).toHaveText('Your card was declined.')
  await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}/decline$`))

  await page.getByRole('button', { name: 'Pay $25.00' }).click()
  await expect(page).toHaveURL(/\/dashboard\/advertiser\/wallet$/)
  await expect(page.getByText('Payment successful')).toBeVisible()
  await expect(page.getByTestId('deposit-completed')).toHaveText(
    'Deposit completed: 25.00 credits added to your wallet.',
  )
  await expect(page.getByTestId('wallet-total')).toHaveText(shown(before + 25))
  await expect(depositRows(page, '25.00')).toHaveCount(1)

  await page.reload()
  await expect(page.getByTestId('wallet-total')).toHaveText(shown(before + 25))
  await expect(depositRows(page, '25.00')).toHaveCount(1)

  // The receipt goes out through the notification queue: wait for it, then make sure it came once.
  const receipts = async () => {
    const messages = (await (await fetch(`${E2E.mailboxUrl}/api/messages`)).json()) as {
      to: string
      subject: string
      text: string
    }[]
    return messages.filter((m) => m.to.includes(DEMO_ADVERTISER) && m.text.includes(sessionId)).map((m) => m.subject)
  }
  await expect.poll(receipts).toEqual(['Receipt: 25.00 credits added to your wallet'])
})

test('Cancel at the checkout shows the cancelled toast, changes nothing and closes that checkout', async ({
  page,
  request,
}) => {
  const before = await openWallet(page)
  const rowsBefore = await depositRows(page, '30.00').count()
  const sessionId = await startDeposit(page, '30')
  await page.getByRole('link', { name: 'Cancel and return to Growletter' }).click()
  await expect(page).toHaveURL(/\/dashboard\/advertiser\/wallet$/)
  await expect(page.getByText('Payment canceled')).toBeVisible()
  await expect(page.getByTestId('wallet-total')).toHaveText(shown(before))
  await expect(depositRows(page, '30.00')).toHaveCount(rowsBefore)
  // The checkout left is closed (Canceled for admins), so no "awaiting payment" banner stays behind.
  const { serviceRoleKey } = await apiKeys()
  await expect
    .poll(async () => {
      const response = await request.get(
        `${E2E.apiUrl}/rest/v1/deposits?select=status&stripe_session_id=eq.${sessionId}`,
        { headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` } },
      )
      return ((await response.json()) as { status: string }[])[0]?.status
    })
    .toBe('canceled')
  await page.reload()
  await expect(page.getByTestId('wallet-total')).toHaveText(shown(before))
  await expect(page.getByTestId('deposit-awaiting').filter({ hasText: 'Deposit of 30.00 credits' })).toHaveCount(0)
})
