/** An admin approved, rejected, banned or reinstated one of the advertiser's newsletters (campaigns). */
import { notificationEmail, str, type NotificationData, type Recipient, type Rendered } from './notification-email.ts'

export function campaignReviewed(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const name = str(data, 'campaign_name')
  const note = str(data, 'note')
  const action = { label: 'Open your dashboard', href: `${siteUrl}/dashboard/advertiser` }
  const withNote = note ? `The reviewer's note: “${note}”` : ''
  switch (str(data, 'status')) {
    case 'approved':
      return notificationEmail(to, {
        subject: `“${name}” is approved and listed`,
        heading: 'Your newsletter is listed',
        paragraphs: [
          `“${name}” is approved: visitors can now find it and subscribe, and publishers can promote it.`,
          withNote,
        ],
        action,
      })
    case 'reinstated':
      return notificationEmail(to, {
        subject: `“${name}” is listed again`,
        heading: 'Your newsletter is reinstated',
        paragraphs: [`“${name}” is listed again.`, withNote],
        action,
      })
    case 'banned':
      return notificationEmail(to, {
        subject: `“${name}” was removed from Growletter`,
        heading: 'Your newsletter was banned',
        paragraphs: [
          `“${name}” was banned by a Growletter admin and is no longer shown. Reserved credits are released to your balance.`,
          withNote,
          'If you think this is a mistake, write to us through the contact page.',
        ],
        action,
      })
    default:
      return notificationEmail(to, {
        subject: `“${name}” was not approved`,
        heading: 'Your newsletter was not approved',
        paragraphs: [`“${name}” was not approved.`, withNote, 'You can change it and submit it again.'],
        action,
      })
  }
}
