/** Page object for the admin review queue. */
import { expect, type Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { DEMO_PASSWORD } from './advertiser'

export const DEMO_ADMIN = 'admin@growletter.test'
/** The demo admin's authenticator secret (supabase/seed.sql, README): admins sign in with a second factor. */
export const DEMO_ADMIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

/**
 * Password, then the code from the authenticator, as an admin signs in. A TOTP code works once, so when an
 * earlier sign-in already used this 30-second step the form refuses it: wait for the next step and retry.
 */
export async function logInAsAdmin(page: Page, dashboardPath = '/dashboard/admin') {
  await page.goto('/login')
  await page.getByLabel('Email').fill(DEMO_ADMIN)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  const totp = new TOTP({ secret: Secret.fromBase32(DEMO_ADMIN_TOTP_SECRET) })
  for (let attempt = 0; attempt < 3; attempt++) {
    // The server also accepts the next step's code (clock drift), which is still unused when this step's
    // was taken by an earlier sign-in: try it before waiting, then wait and use the step after.
    const stepsAhead = attempt === 0 ? 0 : 1
    await page.getByLabel('6-digit code').fill(totp.generate({ timestamp: Date.now() + stepsAhead * totp.period * 1000 }))
    await page.getByTestId('mfa-form').getByRole('button', { name: 'Verify', exact: true }).click()
    const done = await page
      .waitForURL(new RegExp(`${dashboardPath}$`), { timeout: 5_000 })
      .then(() => true)
      .catch(() => false)
    if (done) return
    if (attempt === 1) await page.waitForTimeout(totp.period * 1000 - (Date.now() % (totp.period * 1000)) + 200)
  }
  await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`))
}

export class AdminReviewQueue {
  constructor(readonly page: Page) {}

  logIn() {
    return logInAsAdmin(this.page)
  }

  campaign(name: string) {
    return this.page.getByTestId('review-campaign').filter({ has: this.page.getByRole('heading', { name, exact: true }) })
  }

  /** Approve, Reject (or Ban for sources) a waiting newsletter, with a reason, through the dialog. */
  async decideCampaign(name: string, decision: 'Approve' | 'Reject', reason: string) {
    await this.campaign(name).getByRole('button', { name: `${decision} ${name}` }).click()
    const dialog = this.page.getByRole('dialog')
    await dialog.getByLabel(/^Reason/).fill(reason)
    await dialog.getByRole('button', { name: decision, exact: true }).click()
    await expect(dialog).toBeHidden()
  }
}
