/**
 * Issue 23, points 2 and 3, as a person meets them, navigating only by clicking from each role's landing page:
 * the advertiser's money adds up on the overview and the wallet (available + reserved + on hold = balance) and
 * the statement has one row per charge; an edit to an approved newsletter waits as a revision that an admin
 * approves from the Revisions page with a note, and the advertiser is told.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { AdvertiserDashboard, DEMO_ADVERTISER } from './pages/advertiser'
import { AdminReviewQueue } from './pages/admin'
import { DevMailbox } from './pages/mailbox'

const credits = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''))

async function walletParts(scope: Locator) {
  await expect(scope.getByTestId('wallet-total')).toHaveText(/credits$/)
  const read = async (id: string) => credits(await scope.getByTestId(id).textContent())
  return {
    available: await read('wallet-available'),
    reserved: await read('wallet-reserved'),
    onHold: await read('wallet-held'),
    balance: await read('wallet-total'),
  }
}

const cents = (n: number) => Math.round(n * 100)

async function expectAddsUp(page: Page) {
  const card = page.getByTestId('wallet-balance')
  const parts = await walletParts(card)
  expect(cents(parts.available) + cents(parts.reserved) + cents(parts.onHold)).toBe(cents(parts.balance))
  await expect(card.getByTestId('wallet-sum')).toContainText(`= balance`)
  return parts
}

test('the wallet parts add up on the overview and the wallet, and the statement has one row per charge', async ({
  page,
}) => {
  const advertiser = new AdvertiserDashboard(page)
  await advertiser.logIn()
  const onOverview = await expectAddsUp(page)

  await page.getByRole('navigation', { name: 'Advertiser dashboard' }).getByRole('link', { name: 'Wallet' }).click()
  await expect(page.getByRole('heading', { name: 'Wallet', level: 1 })).toBeVisible()
  const onWallet = await expectAddsUp(page)
  // The same figures under the same labels on both screens.
  expect(onWallet).toEqual(onOverview)

  const rows = page.getByTestId('transaction-row')
  await expect(rows.first()).toBeVisible()
  // A charge is one row whose status moves (On hold, Charged, Refunded): never a separate debit or a 0.00 release.
  await expect(page.getByRole('table', { name: 'Wallet transactions' })).not.toContainText(/\bDebit\b|\bRelease\b/)
  await expect(page.getByRole('table', { name: 'Wallet transactions' })).not.toContainText('0.00 credits refunded')
})

test('an edit to an approved newsletter waits as a revision, and an admin approves it from Revisions', async ({
  browser,
  request,
}) => {
  const name = `E2E Revised ${Date.now().toString(36)}`
  const description = `Edited after approval ${Date.now().toString(36)}`
  const advertiserContext = await browser.newContext()
  const advertiser = new AdvertiserDashboard(await advertiserContext.newPage())
  await advertiser.logIn()
  await advertiser.openSubmitNewsletter()
  await advertiser.submitNewsletter({
    name,
    description: 'The approved description.',
    websiteUrl: 'https://revised.example.com',
    category: 'Other',
    price: '0.50',
    budget: '10',
  })
  await expect(advertiser.campaign(name)).toBeVisible()

  const adminContext = await browser.newContext()
  const admin = new AdminReviewQueue(await adminContext.newPage())
  await admin.logIn()
  await admin.decideCampaign(name, 'Approve', 'Listed.')
  await expect(admin.campaign(name)).toHaveCount(0)

  // The advertiser edits the listed newsletter from Manage.
  const page = advertiser.page
  await page.reload()
  await page.getByRole('navigation', { name: 'Advertiser dashboard' }).getByRole('link', { name: 'Manage' }).click()
  await page.getByLabel('Newsletter', { exact: true }).selectOption({ label: name })
  const form = page.getByTestId('campaign-edit-form')
  await form.getByLabel('Description').fill(description)
  await form.getByRole('button', { name: 'Send changes for review' }).click()
  const pending = page.getByTestId('campaign-revision')
  await expect(pending).toContainText('Changes waiting for review')
  await expect(pending).toContainText(description)

  // The admin finds it under Revisions, old and new side by side, and approves it with a note.
  const adminPage = admin.page
  await adminPage.getByRole('navigation', { name: 'Admin dashboard' }).getByRole('link', { name: 'Revisions' }).click()
  await expect(adminPage.getByRole('heading', { name: 'Revisions', level: 1 })).toBeVisible()
  const revision = adminPage.getByTestId('revision').filter({ has: adminPage.getByRole('heading', { name }) })
  const row = revision.getByTestId('revision-field').filter({ hasText: 'Description' })
  await expect(row).toContainText('The approved description.')
  await expect(row).toContainText(description)
  await revision.getByRole('button', { name: `Approve the changes to ${name}` }).click()
  const dialog = adminPage.getByRole('dialog')
  await dialog.getByLabel(/^Reason/).fill('Clearer, thanks.')
  await dialog.getByRole('button', { name: 'Approve changes' }).click()
  await expect(dialog).toBeHidden()
  await expect(revision).toHaveCount(0)

  // The advertiser is told, by email and on the page, and the new text is live.
  const email = await new DevMailbox(request).waitForEmail(
    DEMO_ADVERTISER,
    new RegExp(`Your changes to “${name}” are approved`),
  )
  expect(email.text).toContain('Clearer, thanks.')
  await page.reload()
  await expect(page.getByTestId('campaign-revision')).toContainText('Your last changes were approved')
  await expect(page.getByTestId('campaign-edit-form').getByLabel('Description')).toHaveValue(description)
  await adminContext.close()
  await advertiserContext.close()
})
