/**
 * The dispute process as each side clicks through it (PRODUCT "Fair to both sides"): the advertiser opens a dispute
 * from Disputes; the publisher reaches Disputes from their dashboard's menu (the sidebar on a desk, the section
 * switcher on a phone), opens the dispute and answers; the admin reviews both sides and decides.
 */
import { expect, type Page } from '@playwright/test'

/** The advertiser, on /dashboard/advertiser/disputes, disputes one subscriber (by email) of a source. */
export async function openDispute(page: Page, sourceName: string, subscriberEmail: string, reason: string) {
  await page.getByTestId('open-dispute').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Source').selectOption({ label: sourceName })
  await dialog
    .getByRole('checkbox', { name: new RegExp(subscriberEmail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .check()
  await dialog.getByLabel('What is wrong?').fill(reason)
  await dialog.getByTestId('submit-dispute').click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('dispute-row').filter({ hasText: reason })).toContainText('Open')
}

export class PublisherDisputes {
  constructor(
    readonly page: Page,
    readonly device: 'desk' | 'phone',
  ) {}

  /** From anywhere in the publisher's dashboard to Disputes, through the menu a person uses on this device. */
  async openFromMenu() {
    if (this.device === 'desk') {
      await this.page
        .getByTestId('dashboard-shell')
        .locator('nav')
        .getByRole('link', { name: 'Disputes', exact: true })
        .click()
    } else {
      await this.page.getByRole('navigation', { name: 'Publisher dashboard' }).getByRole('button').click()
      await this.page.getByRole('menuitem', { name: 'Disputes', exact: true }).click()
    }
    await expect(this.page.getByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible()
  }

  /** The row (a table row on a desk, a card on a phone) of the dispute the advertiser opened with this reason. */
  dispute(reason: string) {
    return this.page.getByTestId('publisher-dispute').filter({ hasText: reason })
  }

  /** Opens the dispute from its row, answers it, and waits for the answer to show on its page. */
  async answer(sourceName: string, reason: string, text: string, links: string[]) {
    await this.dispute(reason)
      .getByRole('link', { name: `Answer the dispute about ${sourceName}` })
      .click()
    await expect(this.page.getByTestId('dispute-reason')).toHaveText(reason)
    const form = this.page.getByTestId('dispute-answer-form')
    await form.getByLabel('Your answer').fill(text)
    await form.getByLabel(/^Evidence links/).fill(links.join('\n'))
    await form.getByTestId('send-dispute-answer').click()
    await expect(this.page.getByTestId('dispute-answer')).toContainText(text)
  }
}
