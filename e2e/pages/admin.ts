/** Page object for the admin review queue. */
import { expect, type Page } from '@playwright/test'
import { logInThroughUi } from './advertiser'

export const DEMO_ADMIN = 'admin@growletter.test'

export class AdminReviewQueue {
  constructor(readonly page: Page) {}

  logIn() {
    return logInThroughUi(this.page, DEMO_ADMIN, '/dashboard/admin')
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
