/** Reading the dev mailbox's JSON API from tests, as the e2e tests and a person do. */
export type MailboxMessage = {
  id: string
  from: string
  to: string
  subject: string
  date: string
  text: string
  html: string
}

/** The messages to `to`, filtered by the mailbox (`?to=`, the same case-insensitive match as below) rather than
 * fetched whole at every poll of a wait. */
export async function messagesTo(mailboxUrl: string, to: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`)
  const all = (await res.json()) as MailboxMessage[]
  return all.filter((m) => m.to.toLowerCase().includes(to.toLowerCase()))
}

/** The newest message to `to` (whose subject contains `subject`, if given); waits briefly for delivery. */
export async function latestMail(
  mailboxUrl: string,
  to: string,
  subject?: string,
  timeoutMs = 5000,
): Promise<MailboxMessage> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await messagesTo(mailboxUrl, to)).find((m) => !subject || m.subject.includes(subject))
    if (found) return found
    if (Date.now() > deadline) throw new Error(`No email to ${to}${subject ? ` about "${subject}"` : ''} arrived`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The first verify link in an email's HTML (entities decoded). */
export function verifyLinkIn(message: MailboxMessage): string {
  const m = /href="([^"]*\/auth\/v1\/verify\?[^"]*)"/.exec(message.html)
  if (!m) throw new Error(`No verify link in "${message.subject}"`)
  return m[1]!.replace(/&amp;/g, '&')
}

/** The OTP shown in an email (the 6-digit code). */
export function otpIn(message: MailboxMessage): string {
  const m = /\b(\d{6})\b/.exec(message.text)
  if (!m) throw new Error(`No code in "${message.subject}"`)
  return m[1]!
}

/** Follows a verify link without following the redirect; returns the Location and its fragment params. */
export async function followVerifyLink(link: string) {
  const res = await fetch(link, { redirect: 'manual' })
  const location = res.headers.get('location') ?? ''
  const hash = location.includes('#') ? location.slice(location.indexOf('#') + 1) : ''
  return { status: res.status, location, fragment: new URLSearchParams(hash) }
}
