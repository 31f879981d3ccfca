/**
 * The admin investigates (issue 23 point 7): from the landing page, by clicking only, the admin reads a message sent
 * through /contact and marks it handled, then opens a new user's page from Users and suspends and reinstates them
 * behind a confirmation with a reason; both decisions reach the audit log. On Money, the admin searches the ledger
 * for the demo advertiser, filters it by type and exports it as CSV, whose rows are the table's.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { logInAsAdmin } from './pages/admin'
import { DEMO_ADVERTISER } from './pages/advertiser'
import { AuthPages, DEMO_PASSWORD, uniqueEmail } from './pages/auth'
import { parseQuotedCsv } from './pages/csv'

test('the admin reads the contact inbox, and suspends and reinstates a user from their page', async ({ browser }) => {
  const tag = Date.now().toString(36)
  const subject = `E2E question ${tag}`
  const email = uniqueEmail('suspend')

  // A visitor writes through the contact page; someone signs up.
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  await visitor.goto('/contact')
  // The page is prerendered: what is typed before the app takes it over is kept, and Send waits for it.
  await visitor.getByLabel('Name', { exact: true }).fill('Kim Reader')
  await visitor.getByLabel('Email', { exact: true }).fill(`kim-${tag}@example.com`)
  await visitor.getByLabel('Subject', { exact: true }).fill(subject)
  await visitor.getByLabel('Message', { exact: true }).fill('Where can I find my invoice?')
  await visitor.getByRole('button', { name: 'Send message' }).click()
  await expect(visitor.getByText('Message sent')).toBeVisible()
  await new AuthPages(visitor).register({
    role: 'advertiser',
    firstName: 'Sue',
    lastName: `Spended ${tag}`,
    email,
    password: DEMO_PASSWORD,
  })
  await visitorContext.close()

  const adminContext = await browser.newContext()
  const page = await adminContext.newPage()
  await logInAsAdmin(page)
  const nav = page.getByRole('navigation', { name: 'Admin dashboard' })

  await nav.getByRole('link', { name: 'Messages' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible()
  const message = page.getByTestId('contact-message').filter({ hasText: subject })
  await expect(message).toContainText('Kim Reader')
  await expect(message.getByRole('link', { name: 'Reply by email' })).toHaveAttribute(
    'href',
    new RegExp(`^mailto:kim-${tag}%40example\\.com`),
  )
  await message.getByRole('button', { name: 'Mark handled' }).click()
  await expect(message).toHaveCount(0)
  await page.getByLabel('Show').selectOption('handled')
  await expect(page.getByTestId('contact-message').filter({ hasText: subject })).toContainText('Handled')

  await nav.getByRole('link', { name: 'Users' }).click()
  await page.getByLabel('Search by email or name').fill(email)
  await page.getByRole('button', { name: 'Search' }).click()
  // The user's page is a button of its own in their row (issue 38), not only their address as a link.
  await page.getByRole('row').filter({ hasText: email }).getByRole('link', { name: 'Open user' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'User' })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByTestId('user-balance')).toContainText('0.00')

  await page.getByRole('button', { name: 'Suspend' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Suspend' }).click()
  await expect(dialog.getByText(/Give a reason/)).toBeVisible()
  await dialog.getByLabel('Reason').fill('Stolen card reported')
  await dialog.getByRole('button', { name: 'Suspend' }).click()
  await expect(page.getByTestId('user-suspended')).toBeVisible()

  await page.getByRole('button', { name: 'Reinstate' }).click()
  await page.getByRole('dialog').getByLabel('Reason').fill('Card owner confirmed')
  await page.getByRole('dialog').getByRole('button', { name: 'Reinstate' }).click()
  await expect(page.getByTestId('user-suspended')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Suspend' })).toBeVisible()

  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Users' }).click()
  await nav.getByRole('link', { name: 'Audit log' }).click()
  const log = page.getByTestId('audit-log')
  await expect(log).toContainText('Stolen card reported')
  await expect(log).toContainText('Card owner confirmed')
  await adminContext.close()
})

/** The fields of an RFC 4180 file whose every field is quoted (what the Money export writes). */
test('the admin searches the ledger for the demo advertiser, filters by type, and exports what the table shows', async ({
  page,
}) => {
  await logInAsAdmin(page)
  await page.getByRole('navigation', { name: 'Admin dashboard' }).getByRole('link', { name: 'Money' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Money' })).toBeVisible()
  await expect(page.getByTestId('admin-transactions')).toBeVisible()

  await page.getByLabel('Search by email, name, reference or description').fill(DEMO_ADVERTISER)
  await expect(page).toHaveURL(/tx_q=advertiser%40growletter\.test/)
  await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Bonus' })
  await expect(page).toHaveURL(/tx_type=bonus/)
  // The demo advertiser's signup bonus, and nobody else's row.
  const rows = page.getByTestId('admin-transactions').locator('tbody tr')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText(DEMO_ADVERTISER)
  await expect(rows.first()).toContainText('Initial bonus')

  // The filtered view survives a reload (its state is the URL).
  await page.reload()
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('bonus')
  await expect(rows).toHaveCount(1)

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export transactions as CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^growletter-ledger-\d{4}-\d{2}-\d{2}\.csv$/)
  await expect(page.getByRole('status').filter({ hasText: /^Exported 1 row to growletter-ledger-/ })).toBeVisible()
  const [header, ...lines] = parseQuotedCsv(await readFile((await file.path())!, 'utf8'))
  expect(header).toEqual([
    'Date (UTC)',
    'Email',
    'Name',
    'Type',
    'Status',
    'Amount (credits)',
    'Refunded (credits)',
    'Description',
    'Subscriber',
    'Source',
    'Newsletter',
    'Reference',
    'Stripe reference',
    'Settles (UTC)',
  ])
  const shown = await rows.allInnerTexts()
  expect(lines).toHaveLength(shown.length)
  for (const [i, line] of lines.entries()) {
    const [, email, name, type, status, amount, , description] = line
    expect([email, type, status, description]).toEqual([DEMO_ADVERTISER, 'Bonus', 'Completed', 'Initial bonus'])
    for (const word of [email!, name!, type!, status!, `${amount} credits`, description!])
      expect(shown[i]).toContain(word)
  }
})
