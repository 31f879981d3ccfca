/** The public audience directory `/audiences` and the magic-link entry, as a visitor uses them. */
import { expect, type Page } from '@playwright/test'

export class Directory {
  constructor(readonly page: Page) {}

  async open(query = '') {
    await this.page.goto(`/audiences${query}`)
    await expect(this.page.getByRole('heading', { level: 1, name: 'Discover Trusted Audiences' })).toBeVisible()
    // Prerendered HTML until the app hydrates it: interact only after that.
    await this.page.locator('html[data-app-ready]').waitFor({ state: 'attached' })
  }

  cards() {
    return this.page.getByTestId('audience-card')
  }

  /** Follows a magic link and waits until the tab has left `/earn`. */
  async followMagicLink(code: string) {
    // 'commit': the light page leaves for the destination's document before its own load event.
    await this.page.goto(`/earn/${code}`, { waitUntil: 'commit' })
    await this.page.waitForURL((url) => !url.pathname.startsWith('/earn'))
  }

  localStorage(keys: readonly string[]) {
    return this.page.evaluate(
      (names) => Object.fromEntries(names.map((k) => [k, window.localStorage.getItem(k)])),
      keys,
    )
  }
}
