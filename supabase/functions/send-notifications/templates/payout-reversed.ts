/**
 * Stripe reversed (part of) the transfer of one of the publisher's payouts: the money came back to Growletter and
 * is in the publisher's available balance again.
 */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function payoutReversed(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const whole = data.whole === true
  return notificationEmail(to, {
    subject: whole
      ? `Your payout of ${credits(data.amount)} was reversed`
      : `${credits(data.returned)} of your payout of ${credits(data.amount)} was reversed`,
    heading: whole ? 'Your payout was reversed' : 'Part of your payout was reversed',
    paragraphs: [
      `Stripe reversed ${whole ? 'the transfer' : `${credits(data.returned)} of the transfer`} of your payout of ${credits(data.amount)} (transfer reference ${str(data, 'reference')}): the money came back from your Stripe account.`,
      `${credits(data.returned)} are in your available balance again. Check your payout setup on the payouts page, then request a payout when you are ready.`,
    ],
    action: { label: 'See your payouts', href: `${siteUrl}/dashboard/publisher/payouts` },
  })
}
