/** A deposit was credited to the advertiser's wallet. */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function depositReceipt(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  return notificationEmail(to, {
    subject: `Receipt: ${credits(data.amount)} added to your wallet`,
    heading: 'Thank you for your deposit',
    paragraphs: [
      `${credits(data.amount)} were added to your wallet (${Number(data.amount ?? 0).toFixed(2)} US dollars).`,
      `Payment reference: ${str(data, 'reference')}.`,
      data.balance !== undefined ? `Your balance is now ${credits(data.balance)}.` : '',
    ],
    action: { label: 'Open your wallet', href: `${siteUrl}/dashboard/advertiser/wallet` },
  })
}
