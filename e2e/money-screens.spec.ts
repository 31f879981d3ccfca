/**
 * Issue 23, points 2, 3 and 9, as a person meets them, navigating only by clicking from each role's landing page:
 * the advertiser's money adds up on the overview and the wallet (available + reserved + on hold = balance) and
 * the statement has one row per charge, filtered by type and dates and exported as the screen shows it; an edit to an approved newsletter waits as a revision that an admin
 * approves from the Revisions page with a note, and the advertiser is told; an edit made while the admin reads the
 * revision is refused on approval (issue 37) and shown as a new version, which the admin then approves as read.
 */
import { readFile } from 'node:fs/promises'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { AdvertiserDashboard, DEMO_ADVERTISER } from './pages/advertiser'
import { AdminReviewQueue } from './pages/admin'
import { DevMailbox } from './pages/mailbox'
import { parseQuotedCsv } from './pages/csv'

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

test('the advertiser filters the statement by type and dates, and exports the rows the screen shows', async ({
  page,
}) => {
  const advertiser = new AdvertiserDashboard(page)
  await advertiser.logIn()
  await page.getByRole('navigation', { name: 'Advertiser dashboard' }).getByRole('link', { name: 'Wallet' }).click()
  await expect(page.getByRole('heading', { name: 'Wallet', level: 1 })).toBeVisible()
  const rows = page.getByTestId('transaction-row')
  await expect(rows.first()).toBeVisible()

  const filters = page.getByRole('group', { name: 'Filter transactions' })
  await filters.getByLabel('Type', { exact: true }).selectOption({ label: 'Charge' })
  await expect(page).toHaveURL(/wal_type=charge/)
  // Charges of the seed that settled 8 to 29 days ago; up to two days ago (UTC), so a charge another spec makes
  // today cannot join the list between reading the screen and exporting.
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
  await page.getByRole('button', { name: 'Filter by date' }).click()
  await page.getByLabel('From', { exact: true }).fill(day(60))
  await page.getByLabel('To', { exact: true }).fill(day(2))
  await expect(page).toHaveURL(new RegExp(`wal_from=${day(60)}&wal_to=${day(2)}`))
  // Only charges (settled or refunded by then), and the filtered view survives a reload (its state is the URL).
  await page.reload()
  await expect(filters.getByLabel('Type', { exact: true })).toHaveValue('charge')
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(day(2))
  await expect(rows.first()).toBeVisible()
  const shown = await rows.allInnerTexts()
  expect(shown.length).toBeGreaterThan(0)
  for (const row of shown) {
    expect(row).toContain('Charge')
    expect(row).toMatch(/Charged|Refunded/)
    expect(row).not.toMatch(/Deposit|Bonus|On hold/)
  }

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export transactions as CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^growletter-wallet-\d{4}-\d{2}-\d{2}\.csv$/)
  const [header, ...lines] = parseQuotedCsv(await readFile((await file.path())!, 'utf8'))
  expect(header).toEqual([
    'Date (UTC)',
    'Type',
    'Description',
    'Subscriber',
    'Source',
    'Reference',
    'Status',
    'Amount (credits)',
    'Refunded (credits)',
    'Settled (UTC)',
  ])
  const count = lines.length
  await expect(page.getByRole('status').filter({ hasText: /^Exported \d+ rows? to growletter-wallet-/ })).toHaveText(
    new RegExp(`^Exported ${count} rows? to growletter-wallet-`),
  )
  // The file's first rows are the screen's first page, row for row, in the same words and amounts.
  expect(lines.slice(0, shown.length)).toHaveLength(shown.length)
  for (const [i, [date, type, description, subscriber, source, , status, amount, refunded]] of lines.entries()) {
    expect(type).toBe('Charge')
    // Each charge names its subscriber and source (issue 38), as the table's row does.
    expect(subscriber).toMatch(/@/)
    expect(source).not.toBe('')
    expect(date! >= `${day(60)}T` && date! < `${day(1)}T`).toBe(true)
    if (i >= shown.length) continue
    for (const word of [type!, description!, status!, `${amount} credits`]) expect(shown[i]).toContain(word)
    if (status === 'Refunded') expect(shown[i]).toContain(`${refunded} credits refunded`)
  }

  // On a phone the filters, the open date range and the export fit the width: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('button', { name: 'Export transactions as CSV' })).toBeVisible()
  await expect(page.getByLabel('To', { exact: true })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test('an edit to an approved newsletter waits as a revision, and an admin approves the version they read from Revisions', async ({
  browser,
  request,
}) => {
  const name = `E2E Revised ${Date.now().toString(36)}`
  const description = `Edited after approval ${Date.now().toString(36)}`
  const editedAgain = `Edited again while the admin read it ${Date.now().toString(36)}`
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

  // The admin finds it under Revisions, old and new side by side.
  const adminPage = admin.page
  await adminPage.getByRole('navigation', { name: 'Admin dashboard' }).getByRole('link', { name: 'Revisions' }).click()
  await expect(adminPage.getByRole('heading', { name: 'Revisions', level: 1 })).toBeVisible()
  const revision = adminPage.getByTestId('revision').filter({ has: adminPage.getByRole('heading', { name }) })
  const row = revision.getByTestId('revision-field').filter({ hasText: 'Description' })
  await expect(row).toContainText('The approved description.')
  await expect(row).toContainText(description)
  await expect(revision.getByTestId('revision-version')).toHaveText(/version 1$/)

  // While the admin reads it, the advertiser edits the description again.
  await form.getByLabel('Description').fill(editedAgain)
  await form.getByRole('button', { name: 'Send changes for review' }).click()
  await expect(pending).toContainText(editedAgain)

  // Approving what the admin read is refused: nothing goes live, and the item shows the new version.
  await revision.getByRole('button', { name: `Approve the changes to ${name}` }).click()
  const dialog = adminPage.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Approve changes' }).click()
  await expect(dialog).toBeHidden()
  await expect(revision.getByRole('alert')).toContainText(
    'This change was edited after you opened it. Review the new version.',
  )
  await expect(revision.getByTestId('revision-version')).toContainText('version 2, edited')
  await expect(row).toContainText(editedAgain)
  await expect(row).not.toContainText(description)

  // The admin approves version 2, as read, with a note.
  await revision.getByRole('button', { name: `Approve the changes to ${name}` }).click()
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
  await expect(page.getByTestId('campaign-edit-form').getByLabel('Description')).toHaveValue(editedAgain)
  await adminContext.close()
  await advertiserContext.close()
})
