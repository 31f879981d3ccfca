/** Stripe refused the transfer of one of the publisher's payouts: the amount is available again. */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function payoutFailed(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  return notificationEmail(to, {
    subject: `Your payout of ${credits(data.amount)} could not be sent`,
    heading: 'Your payout could not be sent',
    paragraphs: [
      `Stripe did not accept the transfer of your payout of ${credits(data.amount)}: ${str(data, 'reason')}.`,
      'The amount is available in your balance again. Check your payout setup on the payouts page, then request the payout again.',
    ],
    action: { label: 'Check your payout setup', href: `${siteUrl}/dashboard/publisher/payouts` },
  })
}
