/** One of the publisher's payouts was paid: a Stripe transfer (reference tr_…), or an admin paid it by hand. */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function payoutPaid(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  return notificationEmail(to, {
    subject: `Your payout of ${credits(data.amount)} is on its way`,
    heading: 'Your payout was sent',
    paragraphs: [
      `We paid your payout request of ${credits(data.amount)} (${Number(data.amount ?? 0).toFixed(2)} US dollars).`,
      `Transfer reference: ${str(data, 'reference')}. Quote it if you ask your bank about the payment.`,
    ],
    action: { label: 'See your payouts', href: `${siteUrl}/dashboard/publisher/payouts` },
  })
}
