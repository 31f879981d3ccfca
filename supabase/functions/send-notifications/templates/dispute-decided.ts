/**
 * An admin decided a dispute: one email to the advertiser who opened it, one to the publisher concerned, each in its
 * own money and each leading to its own page of the dispute.
 */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function disputeDecided(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const upheld = str(data, 'decision') === 'upheld'
  const campaign = str(data, 'campaign_name')
  const source = str(data, 'source_name')
  const subject = source ? `${campaign} via ${source}` : campaign
  const note = str(data, 'note')
  const count = Number(data.subscribers ?? 0)
  const subscribers = `${count} subscriber${count === 1 ? '' : 's'}`
  if (str(data, 'side') === 'advertiser') {
    return notificationEmail(to, {
      subject: upheld ? `Your dispute about ${subject} was upheld` : `Your dispute about ${subject} was rejected`,
      heading: upheld ? 'Dispute upheld' : 'Dispute rejected',
      paragraphs: [
        upheld
          ? `We upheld your dispute about ${subject}: ${credits(data.refunded)} for ${subscribers} went back to your balance.`
          : `We reviewed your dispute about ${subject} and found no reason to refund it; the charges stand.`,
        note ? `The admin's note: “${note}”` : '',
      ],
      action: { label: 'See your disputes', href: `${siteUrl}/dashboard/advertiser/disputes` },
    })
  }
  return notificationEmail(to, {
    subject: upheld ? `A dispute about ${subject} was upheld` : `A dispute about ${subject} was rejected`,
    heading: upheld ? 'An advertiser’s dispute was upheld' : 'An advertiser’s dispute was rejected',
    paragraphs: [
      upheld
        ? `An advertiser disputed subscribers your source brought to ${campaign}, and we upheld it: your pending earnings of ${credits(data.refunded)} for ${subscribers} are cancelled.`
        : `An advertiser disputed subscribers your source brought to ${campaign}. We found no problem: your earnings stand.`,
      note ? `The admin's note: “${note}”` : '',
    ],
    action: {
      label: 'See the dispute',
      href: `${siteUrl}/dashboard/publisher/disputes${str(data, 'dispute_id') ? `/${str(data, 'dispute_id')}` : ''}`,
    },
  })
}
