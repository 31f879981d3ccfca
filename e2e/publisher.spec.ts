/**
 * The publisher's dashboard end to end: the demo publisher signs in, sees earnings and each source with its
 * magic link and click counts, adds a source that waits for review, and reads the stats tables.
 */
import { expect, test } from '@playwright/test'
import { seriousViolations } from './pages/axe'
import { logInAs } from './pages/advertiser'

test('a publisher sees their sources and links, adds one for review, and reads the stats', async ({ page }) => {
  await logInAs(page, 'publisher@growletter.test', '/dashboard/publisher')
  await expect(page.getByTestId('earnings-available')).toHaveText(/\d+\.\d\d credits/)

  const approved = page.getByTestId('publisher-source').filter({ hasText: "Pat's Product Notes" })
  await expect(approved.getByTestId('magic-link')).toHaveText(/\/earn\/demo-approved$/)
  await expect(approved.getByTestId('source-clicks')).toContainText('Counted clicks')
  expect(await seriousViolations(page)).toEqual([])

  await page.getByRole('link', { name: 'Sources' }).click()
  await expect(page).toHaveURL(/\/dashboard\/publisher\/sources$/)
  const name = `E2E Source ${Date.now().toString(36)}`
  await page.getByRole('button', { name: 'Add source' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name', { exact: true }).fill(name)
  await dialog.getByLabel('Platform').selectOption('website')
  await dialog.getByLabel('URL', { exact: true }).fill('https://e2e-source.example.com')
  await dialog.getByLabel('Category').selectOption({ label: 'Technology' })
  await dialog.getByRole('button', { name: 'Submit for review' }).click()
  await expect(dialog).toBeHidden()
  const added = page.getByTestId('publisher-source').filter({ hasText: name })
  await expect(added.getByText('Waiting for review')).toBeVisible()
  // Not approved yet: the link says when it starts working, and there is nothing to copy.
  await expect(added.getByTestId('magic-link-pending')).toHaveText(
    'Pending review. This link starts working once the source is approved.',
  )
  await expect(added.getByRole('button', { name: /Copy the magic link/ })).toHaveCount(0)

  await page.getByRole('link', { name: 'Stats' }).click()
  await expect(page.getByRole('region', { name: 'Per source' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Per campaign' })).toBeVisible()
})
