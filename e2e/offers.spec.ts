/**
 * A publisher chooses an offer by clicking only: from their landing page to Offers, where a newsletter shows what
 * it pays per paid subscriber (price minus the platform fee), and their approved source's link is copied; the
 * source still waiting for review says when its link starts working and has nothing to copy.
 */
import { expect, test } from '@playwright/test'
import { logInAs } from './pages/advertiser'

test('a publisher opens Offers from the dashboard, reads what a newsletter pays and copies its link', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await logInAs(page, 'publisher@growletter.test', '/dashboard/publisher')

  await page.getByRole('link', { name: 'Offers' }).click()
  await expect(page).toHaveURL(/\/dashboard\/publisher\/offers$/)
  await expect(page.getByRole('heading', { name: 'Offers', level: 1 })).toBeVisible()

  const brief = page.getByTestId('offer').filter({ hasText: 'The Frontend Brief' })
  // The seed prices The Frontend Brief at 2.50 credits: the publisher earns 2.00.
  await expect(brief.getByTestId('offer-earning')).toHaveText('2.00 credits')
  await expect(brief).toContainText('Price 2.50 credits minus the 20% platform fee')
  await expect(brief.getByTestId('offer-funding')).toContainText('Paying')

  const pending = brief
    .getByTestId('offer-link')
    .filter({ hasText: 'This link starts working once the source is approved' })
  await expect(pending).toHaveCount(1)
  await expect(pending.getByRole('button')).toHaveCount(0)

  await brief.getByRole('button', { name: "Copy the The Frontend Brief link of Pat's Product Notes" }).click()
  await expect(page.getByText('Link copied')).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toMatch(/\/campaign\/demo-approved\/20000000-0000-4000-a000-000000000001$/)
})
