/** An admin approved, rejected, banned or reinstated one of the publisher's audience sources. */
import { notificationEmail, str, type NotificationData, type Recipient, type Rendered } from './notification-email.ts'

export function sourceReviewed(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const name = str(data, 'source_name')
  const note = str(data, 'note')
  const action = { label: 'Open your sources', href: `${siteUrl}/dashboard/publisher/sources` }
  const withNote = note ? `The reviewer's note: “${note}”` : ''
  switch (str(data, 'status')) {
    case 'approved':
      return notificationEmail(to, {
        subject: `Your source “${name}” is approved`,
        heading: 'Your source is live',
        paragraphs: [
          `“${name}” is approved: its magic link now earns you credits for every confirmed subscriber it brings.`,
          withNote,
        ],
        action,
      })
    case 'reinstated':
      return notificationEmail(to, {
        subject: `Your source “${name}” is live again`,
        heading: 'Your source is reinstated',
        paragraphs: [`“${name}” is live again and its magic link earns credits once more.`, withNote],
        action,
      })
    case 'banned':
      return notificationEmail(to, {
        subject: `Your source “${name}” was banned`,
        heading: 'Your source was banned',
        paragraphs: [
          `“${name}” was banned by a Growletter admin. Its magic link no longer earns credits, and earnings still in screening from it are cancelled.`,
          withNote,
          'If you think this is a mistake, reply through the contact page and tell us why.',
        ],
        action,
      })
    default:
      return notificationEmail(to, {
        subject: `Your source “${name}” was not approved`,
        heading: 'Your source was not approved',
        paragraphs: [`“${name}” was not approved.`, withNote, 'You can edit the source and submit it again.'],
        action,
      })
  }
}
