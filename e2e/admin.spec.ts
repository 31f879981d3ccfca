/**
 * The admin's side end to end: a newsletter rejected with a reason shows the advertiser that reason;
 * the users and money screens read real data; every admin screen passes axe.
 */
import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './pages/axe'
import { AdvertiserDashboard, DEMO_ADVERTISER } from './pages/advertiser'
import { AdminReviewQueue } from './pages/admin'

test('a newsletter rejected with a reason shows the advertiser that reason', async ({ browser }) => {
  const name = `E2E Rejected ${Date.now().toString(36)}`
  const advertiserContext = await browser.newContext()
  const advertiser = new AdvertiserDashboard(await advertiserContext.newPage())
  await advertiser.logIn()
  await advertiser.openSubmitNewsletter()
  await advertiser.submitNewsletter({
    name,
    description: 'Submitted to be refused.',
    websiteUrl: 'https://rejected.example.com',
    category: 'Other',
    price: '0.50',
    budget: '10',
  })
  await expect(advertiser.campaign(name)).toBeVisible()

  const adminContext = await browser.newContext()
  const admin = new AdminReviewQueue(await adminContext.newPage())
  await admin.logIn()
  // Rejecting without a reason is refused in the dialog before anything is sent.
  await admin
    .campaign(name)
    .getByRole('button', { name: `Reject ${name}` })
    .click()
  const dialog = admin.page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(dialog.getByText('Give a reason: the owner sees it and it is kept in the audit log.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  await admin.decideCampaign(name, 'Reject', 'The website does not load.')
  await expect(admin.campaign(name)).toHaveCount(0)
  await expect(admin.page.getByTestId('audit-log')).toContainText('The website does not load.')

  await advertiser.page.reload()
  const item = advertiser.campaign(name)
  await expect(item.getByTestId('campaign-status')).toHaveText('Rejected')
  await expect(item).toContainText('The website does not load.')
  await adminContext.close()
  await advertiserContext.close()
})

test('the admin finds users and sees the money of the marketplace', async ({ page }) => {
  const admin = new AdminReviewQueue(page)
  await admin.logIn()
  const nav = page.getByRole('navigation', { name: 'Admin dashboard' })

  await nav.getByRole('link', { name: 'Users' }).click()
  await page.getByLabel('Search by email or name').fill('advertiser@')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('user-row')).toHaveCount(1)
  await expect(page.getByTestId('user-row')).toContainText(DEMO_ADVERTISER)
  await expectNoSeriousA11yViolations(page)

  await nav.getByRole('link', { name: 'Money' }).click()
  await expect(page.getByTestId('marketplace-totals')).toContainText('Credits in wallets')
  await expect(page.getByTestId('admin-transactions')).toBeVisible()
  await page.getByRole('button', { name: 'On hold' }).click()
  await expect(page.getByRole('button', { name: 'On hold' })).toHaveAttribute('aria-pressed', 'true')
  await expect(page).toHaveURL(/tx_type=hold&tx_status=pending/)
  // The pressed button's colours fade in (transition-colors): axe would measure the contrast half-way through.
  await expect
    .poll(() => page.getByRole('button', { name: 'On hold' }).evaluate((el) => el.getAnimations().length))
    .toBe(0)
  await expectNoSeriousA11yViolations(page)
})
