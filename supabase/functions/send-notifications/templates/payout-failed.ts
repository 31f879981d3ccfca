/**
 * One of the publisher's payouts failed: Stripe refused its transfer, or it was not sent at all because the payout
 * account was no longer ready when it was due (`before_transfer`). Either way the amount is available again.
 */
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
      data.before_transfer === true
        ? `Your payout of ${credits(data.amount)} was not sent because your payout account is not ready: ${str(data, 'reason')}`
        : `Stripe did not accept the transfer of your payout of ${credits(data.amount)}: ${str(data, 'reason')}.`,
      'The amount is available in your balance again. Check your payout setup on the payouts page, then request the payout again.',
    ],
    action: { label: 'Check your payout setup', href: `${siteUrl}/dashboard/publisher/payouts` },
  })
}
