/** Page object for the advertiser dashboard: sign in, read the wallet and campaigns, submit a newsletter. */
import { expect, type Page } from '@playwright/test'
import { restoreSession, saveSession } from './sessions'

export const DEMO_PASSWORD = 'growletter-demo'
export const DEMO_ADVERTISER = 'advertiser@growletter.test'

export type NewsletterInput = {
  name: string
  description: string
  imageUrl?: string
  websiteUrl: string
  category: string
  price: string
  budget: string
}

/** Signs in through the UI at /login (fields labelled Email and Password) and waits for the dashboard. */
export async function logInThroughUi(page: Page, email: string, dashboardPath: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`))
}

/**
 * Opens `dashboardPath` signed in as the demo account `email`: through the form at /login the first time in this
 * worker, afterwards from the session that sign-in saved (e2e/pages/sessions.ts). For specs whose subject is what
 * comes after the sign-in; e2e/accounts.spec.ts tests the form itself.
 */
export async function logInAs(page: Page, email: string, dashboardPath: string) {
  if (await restoreSession(page, email)) {
    await page.goto(dashboardPath)
    await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`))
    return
  }
  await logInThroughUi(page, email, dashboardPath)
  await saveSession(page, email)
}

export class AdvertiserDashboard {
  constructor(readonly page: Page) {}

  logIn() {
    return logInAs(this.page, DEMO_ADVERTISER, '/dashboard/advertiser')
  }

  availableBalance() {
    return this.page.getByTestId('wallet-available')
  }

  campaign(name: string) {
    return this.page.getByTestId('campaign-item').filter({ has: this.page.getByRole('link', { name, exact: true }) })
  }

  async openSubmitNewsletter() {
    await this.page
      .getByRole('navigation', { name: 'Advertiser dashboard' })
      .getByRole('link', { name: 'Submit newsletter' })
      .click()
    await expect(this.page.getByRole('heading', { name: 'Submit a newsletter' })).toBeVisible()
  }

  async submitNewsletter(input: NewsletterInput) {
    const page = this.page
    await page.getByLabel('Newsletter name').fill(input.name)
    await page.getByLabel('Description').fill(input.description)
    if (input.imageUrl) await page.getByLabel('Image URL').fill(input.imageUrl)
    await page.getByLabel('Website URL').fill(input.websiteUrl)
    await page.getByLabel('Category').selectOption(input.category)
    await page.getByLabel('Price per subscriber (credits)').fill(input.price)
    await page.getByLabel('Budget (credits)').fill(input.budget)
    await page.getByRole('button', { name: 'Submit for review' }).click()
  }
}
