/** Page object for the admin review queue. */
import { expect, type Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { DEMO_PASSWORD } from './advertiser'
import { restoreSession, saveSession } from './sessions'

export const DEMO_ADMIN = 'admin@growletter.test'
/** The demo admin's authenticator secret (supabase/seed.sql, README): admins sign in with a second factor. */
export const DEMO_ADMIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

/** The last TOTP step this worker's admin sign-ins used: a code works once, so the next one needs a later step. */
let lastStepUsed = -Infinity

/**
 * Password, then the code from the authenticator, as an admin signs in, the first time in this worker; later
 * sign-ins start from the session (aal2) that one saved, as a person opening a second tab would, instead of waiting
 * up to 30 s for an unused TOTP step (e2e/pages/sessions.ts). A TOTP code works once and the server accepts the next
 * step's code too (clock drift), so each sign-in uses the first step no earlier sign-in of this worker used, waiting
 * only when that step is more than one ahead; a refusal (another worker took the step) moves on to the next step.
 */
export async function logInAsAdmin(page: Page, dashboardPath = '/dashboard/admin') {
  if (await restoreSession(page, DEMO_ADMIN)) {
    await page.goto(dashboardPath)
    await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`))
    return
  }
  await page.goto('/login')
  await page.getByLabel('Email').fill(DEMO_ADMIN)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  const totp = new TOTP({ secret: Secret.fromBase32(DEMO_ADMIN_TOTP_SECRET) })
  const period = totp.period * 1000
  for (let attempt = 0; attempt < 3; attempt++) {
    const step = Math.max(Math.floor(Date.now() / period), lastStepUsed + 1)
    const wait = (step - 1) * period - Date.now()
    if (wait > 0) await page.waitForTimeout(wait + 200)
    lastStepUsed = step
    await page.getByLabel('6-digit code').fill(totp.generate({ timestamp: step * period }))
    await page.getByTestId('mfa-form').getByRole('button', { name: 'Verify', exact: true }).click()
    // Either the dashboard opens or the form says the code did not work: wait for whichever happens, however
    // long a busy machine takes, rather than guessing from a few seconds of silence.
    const outcome = await Promise.race([
      page.waitForURL(new RegExp(`${dashboardPath}$`)).then(
        () => 'signed in' as const,
        () => 'closed' as const,
      ),
      page
        .getByText(/^That code did not work/)
        .waitFor()
        .then(
          () => 'refused' as const,
          () => 'closed' as const,
        ),
    ])
    if (outcome === 'signed in') return saveSession(page, DEMO_ADMIN)
  }
  await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`))
  await saveSession(page, DEMO_ADMIN)
}

export class AdminReviewQueue {
  constructor(readonly page: Page) {}

  logIn() {
    return logInAsAdmin(this.page)
  }

  campaign(name: string) {
    return this.page
      .getByTestId('review-campaign')
      .filter({ has: this.page.getByRole('heading', { name, exact: true }) })
  }

  /** Approve, Reject (or Ban for sources) a waiting newsletter, with a reason, through the dialog. */
  async decideCampaign(name: string, decision: 'Approve' | 'Reject', reason: string) {
    await this.campaign(name)
      .getByRole('button', { name: `${decision} ${name}` })
      .click()
    const dialog = this.page.getByRole('dialog')
    await dialog.getByLabel(/^Reason/).fill(reason)
    await dialog.getByRole('button', { name: decision, exact: true }).click()
    await expect(dialog).toBeHidden()
  }
}
