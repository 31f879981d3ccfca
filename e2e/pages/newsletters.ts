/** Browse Newsletters, the subscribe panel, the dev mailbox and the confirmation page, as a reader uses them. */
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { E2E } from '../ports'

export type MailboxMessage = { id: string; to: string; subject: string; text: string; html: string; date: string }

export class NewslettersPage {
  constructor(readonly page: Page) {}

  /** The page is prerendered HTML until the app has hydrated it: interact only after that. */
  async ready() {
    await this.page.locator('html[data-app-ready]').waitFor({ state: 'attached' })
  }

  async pick(...names: string[]) {
    await this.ready()
    for (const name of names) await this.page.getByLabel(`Select ${name}`).check()
  }

  async subscribe(email: string) {
    await this.ready()
    const panel = this.page.getByTestId('subscribe-panel')
    await panel.getByLabel('Email address').fill(email)
    await panel.getByRole('button', { name: /^Subscribe/ }).click()
    await expect(panel.getByTestId('subscribe-success')).toBeVisible()
  }
}

export class Mailbox {
  constructor(readonly request: APIRequestContext) {}

  /**
   * The mailbox filters by recipient itself (`?to=`, the same case-blind match): fetching every message of the run
   * and filtering here sent the whole mailbox, hundreds of HTML emails by the end of the suite, on every poll.
   */
  async messagesTo(email: string): Promise<MailboxMessage[]> {
    const response = await this.request.get(`${E2E.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)
    expect(response.ok()).toBe(true)
    return (await response.json()) as MailboxMessage[]
  }

  /** Waits for the messages to arrive (the function sends after answering the form). */
  async waitForMessagesTo(email: string, count = 1): Promise<MailboxMessage[]> {
    let messages: MailboxMessage[] = []
    await expect
      .poll(async () => (messages = await this.messagesTo(email)).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(count)
    return messages
  }
}

/** The confirmation links of a message, in order, from its text part (no HTML entities to undo). */
export function confirmationLinks(message: MailboxMessage): string[] {
  const found = message.text.match(/https?:\/\/[^\s<>"]+\/confirm-subscription\?[^\s<>"]+/g) ?? []
  return [...new Set(found)]
}
