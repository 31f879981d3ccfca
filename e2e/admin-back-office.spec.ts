/**
 * The admin investigates (issue 23 point 7): from the landing page, by clicking only, the admin reads a message sent
 * through /contact and marks it handled, then opens a new user's page from Users and suspends and reinstates them
 * behind a confirmation with a reason; both decisions reach the audit log.
 */
import { expect, test } from '@playwright/test'
import { logInAsAdmin } from './pages/admin'
import { AuthPages, DEMO_PASSWORD, uniqueEmail } from './pages/auth'

test('the admin reads the contact inbox, and suspends and reinstates a user from their page', async ({ browser }) => {
  const tag = Date.now().toString(36)
  const subject = `E2E question ${tag}`
  const email = uniqueEmail('suspend')

  // A visitor writes through the contact page; someone signs up.
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  await visitor.goto('/contact')
  // The page is prerendered: typing before React takes it over is lost, so fill until the fields keep the text.
  await expect(async () => {
    await visitor.getByLabel('Name', { exact: true }).fill('Kim Reader')
    await visitor.getByLabel('Email', { exact: true }).fill(`kim-${tag}@example.com`)
    await visitor.getByLabel('Subject', { exact: true }).fill(subject)
    await visitor.getByLabel('Message', { exact: true }).fill('Where can I find my invoice?')
    await expect(visitor.getByLabel('Name', { exact: true })).toHaveValue('Kim Reader', { timeout: 1000 })
  }).toPass()
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
  await page.getByRole('link', { name: email }).click()
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
