/**
 * The advertiser decided about one of the publisher's sources for a newsletter (decide_partner): approved (with the
 * price its readers pay and what the publisher earns), declined (it may apply again 7 days later) or blocked.
 */
import {
  credits,
  notificationEmail,
  str,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function partnerDecided(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const source = str(data, 'source_name')
  const newsletter = str(data, 'campaign_name')
  const action = { label: 'Open your offers', href: `${siteUrl}/dashboard/publisher/offers` }
  switch (str(data, 'status')) {
    case 'approved':
      return notificationEmail(to, {
        subject: `${source} is a partner of ${newsletter}`,
        heading: 'You are a partner',
        paragraphs: [
          `The advertiser of ${newsletter} approved ${source}. Readers who subscribe through its link are paid from now on.`,
          `${data.own_price ? 'Your own price' : 'The price'}: ${credits(data.price)} per subscriber; you earn ${credits(data.earning)} after the platform fee.`,
        ],
        action,
      })
    case 'declined':
      return notificationEmail(to, {
        subject: `${newsletter} declined ${source}`,
        heading: 'Your application was declined',
        paragraphs: [
          `The advertiser of ${newsletter} declined ${source} for now. Readers through its link are not paid.`,
          'You can apply again 7 days from now, from your offers.',
        ],
        action,
      })
    default:
      return notificationEmail(to, {
        subject: `${newsletter} no longer works with ${source}`,
        heading: 'Your source was blocked',
        paragraphs: [
          `The advertiser of ${newsletter} blocked ${source}. Readers who subscribe through its link are no longer paid; what you already earned is not affected.`,
          'Promote another newsletter from your offers.',
        ],
        action,
      })
  }
}
