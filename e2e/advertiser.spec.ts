/**
 * The advertiser's journey end to end: the demo advertiser sees their wallet and campaigns, lists a
 * newsletter that waits for review; the demo admin approves it in the review queue; the advertiser then
 * sees it active. Each person has their own browser context, as two people on two machines would.
 */
import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './pages/axe'
import { AdvertiserDashboard } from './pages/advertiser'
import { AdminReviewQueue } from './pages/admin'

test('an advertiser lists a newsletter, an admin approves it, and it becomes active', async ({ browser }) => {
  const name = `E2E Weekly ${Date.now().toString(36)}`

  const advertiserContext = await browser.newContext()
  const advertiser = new AdvertiserDashboard(await advertiserContext.newPage())
  await advertiser.logIn()
  await expect(advertiser.availableBalance()).toHaveText(/^\d[\d,]*\.\d\d credits$/)
  await expect(advertiser.campaign('The Frontend Brief').getByTestId('campaign-status')).toHaveText('Active')
  await expectNoSeriousA11yViolations(advertiser.page)

  await advertiser.openSubmitNewsletter()
  await expectNoSeriousA11yViolations(advertiser.page)
  await advertiser.submitNewsletter({
    name,
    description: 'A newsletter written by the end-to-end test.',
    websiteUrl: 'https://e2e-weekly.example.com',
    category: 'Technology',
    price: '1.50',
    budget: '30',
  })
  await expect(advertiser.page.getByText(`${name} was submitted for review`)).toBeVisible()
  await expect(advertiser.page).toHaveURL(/\/dashboard\/advertiser$/)
  await expect(advertiser.campaign(name).getByTestId('campaign-status')).toHaveText('Pending review')

  const adminContext = await browser.newContext()
  const admin = new AdminReviewQueue(await adminContext.newPage())
  await admin.logIn()
  await expect(admin.campaign(name)).toBeVisible()
  await expectNoSeriousA11yViolations(admin.page)
  // The preview is a child of the review queue in the route table: its way in is this link, and back.
  await admin
    .campaign(name)
    .getByRole('link', { name: `Preview ${name}` })
    .click()
  await expect(admin.page.getByTestId('admin-preview-note')).toContainText('Pending review')
  await expect(admin.page).toHaveTitle(/^Newsletter preview · Admin · /)
  await admin.page.goBack()
  await admin.decideCampaign(name, 'Approve', 'Looks good')
  await expect(admin.campaign(name)).toHaveCount(0)
  await expect(admin.page.getByTestId('audit-log')).toContainText('Pending review → Active')

  await advertiser.page.reload()
  await expect(advertiser.campaign(name).getByTestId('campaign-status')).toHaveText('Active')

  await adminContext.close()
  await advertiserContext.close()
})

test('the analytics and wallet pages show the demo advertiser their numbers', async ({ page }) => {
  const advertiser = new AdvertiserDashboard(page)
  await advertiser.logIn()
  await advertiser.campaign('The Frontend Brief').getByRole('link', { name: 'The Frontend Brief' }).click()
  await expect(page).toHaveURL(/\/dashboard\/advertiser\/analytics\?newsletterId=/)
  await expect(page.getByLabel('Newsletter', { exact: true })).toHaveValue('20000000-0000-4000-a000-000000000001')
  await expect(page.getByTestId('analytics-summary')).toBeVisible()
  await expect(page.getByRole('img', { name: /Counted clicks and views per day/ })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  // On a phone the tables become cards and the sections sit behind one button that names the current one.
  await page.setViewportSize({ width: 375, height: 800 })
  await page
    .getByRole('navigation', { name: 'Advertiser dashboard' })
    .getByRole('button', { name: /Analytics/ })
    .click()
  await expect(page.getByRole('menuitem', { name: 'Wallet' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expectNoSeriousA11yViolations(page)
  await page.setViewportSize({ width: 1280, height: 720 })

  await page.getByRole('navigation', { name: 'Advertiser dashboard' }).getByRole('link', { name: 'Wallet' }).click()
  const ledger = page.getByRole('table', { name: 'Wallet transactions' })
  // The seed paid the bonus and a deposit, and confirmed subscribers put charges on hold: a ledger, newest first.
  await expect(ledger.getByRole('row').nth(1)).toBeVisible()
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible()
  // Deposits start from "Add funds" (a dialog), never from a bare "Deposit" button. Anchored: another spec working
  // at the same time may leave the shared demo advertiser a deposit awaiting payment, whose "Cancel the deposit…"
  // button is rightly shown.
  await expect(page.getByTestId('deposit-button')).toHaveText('Add funds')
  await expect(page.getByRole('button', { name: /^deposit/i })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)
})
