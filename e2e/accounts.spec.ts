/**
 * Accounts end to end, through the real embedded backend and the dev mailbox: register, confirm by email,
 * land on the right dashboard, log out, log in, reset a forgotten password. The wallet bonus of a new
 * advertiser is paid by the database on the first sign-in.
 */
import { expect, test } from '@playwright/test'
import { seriousViolations } from './pages/axe'
import { AuthPages, DEMO_ACCOUNTS, DEMO_PASSWORD, dashboardOf, uniqueEmail } from './pages/auth'
import { DevMailbox, verifyLinkIn } from './pages/mailbox'
import { openFromSidebar } from './pages/visit'

const CONFIRM_SUBJECT = /Confirm your/i
const RESET_SUBJECT = /Reset your/i

test('a new influencer registers, confirms from the mailbox and lands on the influencer dashboard', async ({
  page,
  request,
}) => {
  const auth = new AuthPages(page)
  const mailbox = new DevMailbox(request)
  const email = uniqueEmail('influencer')
  await auth.register({
    role: 'publisher',
    firstName: 'Ines',
    lastName: 'Influencer',
    email,
    password: 'a-long-secret-1',
  })

  const confirmation = await mailbox.waitForEmail(email, CONFIRM_SUBJECT)
  await page.goto(verifyLinkIn(confirmation))
  await expect(page).toHaveURL(/\/dashboard\/publisher$/)
  await expect(page.getByRole('heading', { name: 'Influencer dashboard' })).toBeVisible()
  // The tokens the link carried are not left in the address bar.
  expect(new URL(page.url()).hash).toBe('')

  await auth.logOut()
})

test('a new advertiser confirms by email and starts with the 10-credit bonus', async ({ page, request }) => {
  const auth = new AuthPages(page)
  const mailbox = new DevMailbox(request)
  const email = uniqueEmail('advertiser')
  await auth.register({
    role: 'advertiser',
    firstName: 'Arlo',
    lastName: 'Advertiser',
    email,
    password: 'a-long-secret-2',
  })

  await page.goto(verifyLinkIn(await mailbox.waitForEmail(email, CONFIRM_SUBJECT)))
  await expect(page).toHaveURL(/\/dashboard\/advertiser$/)
  await expect(page.getByTestId('wallet-available')).toHaveText('10.00 credits')

  await openFromSidebar(page, '/dashboard/advertiser/wallet', 'Wallet')
  await expect(page.getByText('Initial bonus')).toBeVisible()
  // Signing in again never pays the bonus twice.
  await auth.logOut()
  await auth.logIn(email, 'a-long-secret-2', dashboardOf.advertiser)
  await expect(page.getByTestId('wallet-available')).toHaveText('10.00 credits')
})

test('the demo advertiser logs in and sees their balance; the avatar menu shows who is signed in', async ({ page }) => {
  const auth = new AuthPages(page)
  await auth.logIn(DEMO_ACCOUNTS.advertiser, DEMO_PASSWORD, dashboardOf.advertiser)
  await expect(page.getByTestId('wallet-available')).toHaveText(/^\d[\d,]*\.\d\d credits$/)
  await expect(page.getByRole('contentinfo')).toHaveCount(0)
  await page.getByRole('button', { name: 'Account menu' }).click()
  await expect(page.getByTestId('user-menu-email')).toHaveText(DEMO_ACCOUNTS.advertiser)
  await expect(page.getByTestId('user-menu-name')).toHaveText('Ada Advertiser')
  await page.keyboard.press('Escape')
  await auth.logOut()
})

test('a forgotten password is reset from the emailed link and the new one works', async ({ page, request }) => {
  const auth = new AuthPages(page)
  const mailbox = new DevMailbox(request)
  const email = uniqueEmail('forgetful')
  await auth.register({ role: 'publisher', firstName: 'Fay', lastName: 'Forgetful', email, password: 'the-old-secret' })
  await page.goto(verifyLinkIn(await mailbox.waitForEmail(email, CONFIRM_SUBJECT)))
  await expect(page).toHaveURL(/\/dashboard\/publisher$/)
  await auth.logOut()

  await auth.requestPasswordReset(email)
  await page.goto(verifyLinkIn(await mailbox.waitForEmail(email, RESET_SUBJECT)))
  await expect(page).toHaveURL(/\/reset-password$/)
  await auth.chooseNewPassword('the-new-secret')
  await expect(page).toHaveURL(/\/dashboard\/publisher$/)
  await auth.logOut()

  await auth.submitLogin(email, 'the-old-secret')
  await expect(page.getByTestId('login-error')).toContainText('Invalid login credentials')
  await auth.logIn(email, 'the-new-secret', dashboardOf.publisher)
})

test('logging in before confirming explains why and offers a new email', async ({ page, request }) => {
  const auth = new AuthPages(page)
  const mailbox = new DevMailbox(request)
  const email = uniqueEmail('unconfirmed')
  await auth.register({
    role: 'advertiser',
    firstName: 'Una',
    lastName: 'Confirmed',
    email,
    password: 'a-long-secret-3',
  })
  await mailbox.waitForEmail(email, CONFIRM_SUBJECT)
  const before = (await mailbox.messagesTo(email)).length

  await auth.submitLogin(email, 'a-long-secret-3')
  await expect(page.getByTestId('login-unconfirmed')).toContainText('not confirmed')
  await page.getByRole('button', { name: 'Resend confirmation email' }).click()
  await expect(page.getByText('Verification email sent')).toBeVisible()
  // A new confirmation, or (SPEC §8 fallback, e.g. when the auth server's per-address limit refuses a resend
  // this soon after sign-up) a password-reset email, which proves ownership of the address as well.
  await expect.poll(async () => (await mailbox.messagesTo(email)).length, { timeout: 30_000 }).toBeGreaterThan(before)
})

for (const path of ['/', '/login', '/register']) {
  test(`axe finds no serious violations on ${path}`, async ({ page }) => {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
  })
}
