/**
 * The dev mailbox (JSON API of the embedded backend's SMTP sink), used like a person uses their inbox:
 * wait for the email, then follow the link in it.
 */
import { expect, type APIRequestContext } from '@playwright/test'
import { E2E } from '../ports'

export type MailMessage = {
  id: string
  from: string
  to: string
  subject: string
  date: string
  text: string
  html: string
}

export class DevMailbox {
  constructor(readonly request: APIRequestContext) {}

  /** Newest first, only those addressed to `email`. */
  async messagesTo(email: string): Promise<MailMessage[]> {
    const response = await this.request.get(`${E2E.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)
    expect(response.ok()).toBe(true)
    return (await response.json()) as MailMessage[]
  }

  /**
   * Waits for an email to `email` whose subject matches (and whose text has `containing`, when given: the one of this
   * test among others with the same subject), newer than the ones already counted.
   */
  async waitForEmail(
    email: string,
    subject: RegExp,
    { after = 0, timeout = 30_000, containing = '' } = {},
  ): Promise<MailMessage> {
    let found: MailMessage | undefined
    await expect
      .poll(
        async () => {
          const matching = (await this.messagesTo(email)).filter(
            (message) => subject.test(message.subject) && message.text.includes(containing),
          )
          found = matching.length > after ? matching[0] : undefined
          return Boolean(found)
        },
        { timeout, message: `an email to ${email} with subject ${subject}` },
      )
      .toBe(true)
    return found!
  }

  async count(email: string, subject: RegExp) {
    return (await this.messagesTo(email)).filter((message) => subject.test(message.subject)).length
  }
}

/** The first link in an email that goes through the auth server's verify endpoint. */
export function verifyLinkIn(message: MailMessage): string {
  const source = `${message.html}\n${message.text}`
  const match = source.match(/https?:\/\/[^\s"'<>]+\/auth\/v1\/verify\?[^\s"'<>]+/)
  if (!match) throw new Error(`No verify link in "${message.subject}"`)
  return match[0].replace(/&amp;/g, '&')
}
