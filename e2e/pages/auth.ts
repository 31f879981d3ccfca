/** Page objects for the account screens: register, log in (with the TOTP step), forgot/reset password, log out. */
import { expect, type Page } from '@playwright/test'

export const DEMO_PASSWORD = 'growletter-demo'
export const DEMO_ACCOUNTS = {
  admin: 'admin@growletter.test',
  advertiser: 'advertiser@growletter.test',
  publisher: 'publisher@growletter.test',
} as const

export const dashboardOf = {
  advertiser: '/dashboard/advertiser',
  publisher: '/dashboard/publisher',
  admin: '/dashboard/admin',
} as const

/** A unique address per run, so tests never collide with each other or with the seed. */
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.test`

export class AuthPages {
  constructor(readonly page: Page) {}

  async register(input: {
    role: 'advertiser' | 'publisher'
    firstName: string
    lastName: string
    email: string
    password: string
  }) {
    await this.page.goto(`/register?role=${input.role}`)
    await expect(
      this.page.getByRole('radio', { name: input.role === 'publisher' ? /Influencer/ : /Advertiser/ }),
    ).toBeChecked()
    await this.page.getByLabel('First name').fill(input.firstName)
    await this.page.getByLabel('Last name').fill(input.lastName)
    await this.page.getByLabel('Email').fill(input.email)
    await this.page.getByLabel('Password').fill(input.password)
    await this.page.getByRole('button', { name: 'Create account' }).click()
    await expect(this.page.getByTestId('check-email')).toContainText(input.email)
  }

  /** Fills the login form; does not wait for a destination (see `logIn`). */
  async submitLogin(email: string, password: string) {
    await this.page.goto('/login')
    await this.page.getByLabel('Email').fill(email)
    await this.page.getByLabel('Password').fill(password)
    await this.page.getByRole('button', { name: 'Log in' }).click()
  }

  async logIn(email: string, password: string, dashboardPath: string) {
    await this.submitLogin(email, password)
    await expect(this.page).toHaveURL(new RegExp(`${dashboardPath}$`))
  }

  /** Logs out through the avatar menu (desktop) and waits for the login page and the SPEC §8 toast. */
  async logOut() {
    await this.page.getByRole('button', { name: 'Account menu' }).click()
    await this.page.getByRole('menuitem', { name: 'Log out' }).click()
    await expect(this.page.getByText('See you again soon!')).toBeVisible()
    await expect(this.page).toHaveURL(/\/login$/)
  }

  async requestPasswordReset(email: string) {
    await this.page.goto('/forgot-password')
    await this.page.getByLabel('Email').fill(email)
    await this.page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(this.page.getByTestId('check-email')).toContainText(email)
  }

  /** On /reset-password (opened from the email link): choose the new password. */
  async chooseNewPassword(password: string) {
    await this.page.getByLabel('New password', { exact: true }).fill(password)
    await this.page.getByLabel('Repeat the new password').fill(password)
    await this.page.getByRole('button', { name: 'Save new password' }).click()
    await expect(this.page.getByText('Password updated')).toBeVisible()
  }
}
