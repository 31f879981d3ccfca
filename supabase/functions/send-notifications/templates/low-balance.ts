/** The advertiser's available balance can pay fewer than five subscribers of their active newsletters. */
import {
  credits,
  notificationEmail,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function lowBalance(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  return notificationEmail(to, {
    subject: 'Your Growletter balance is running low',
    heading: 'Your balance is running low',
    paragraphs: [
      `You have ${credits(data.available)} available, less than five subscribers' price (${credits(data.threshold)}).`,
      'When it cannot pay one more subscriber, your newsletters stop being shown. Add credits to keep growing.',
    ],
    action: { label: 'Add credits', href: `${siteUrl}/dashboard/advertiser/wallet` },
  })
}
