/**
 * A publisher applied with one of its sources to promote the advertiser's newsletter (apply_to_campaign): which
 * source, on which platform, its message, and a link to the newsletter's Partners page to decide.
 */
import { notificationEmail, str, type NotificationData, type Recipient, type Rendered } from './notification-email.ts'

export function partnerApplied(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const source = str(data, 'source_name')
  const newsletter = str(data, 'campaign_name')
  const message = str(data, 'message')
  return notificationEmail(to, {
    subject: `${source} applied to promote ${newsletter}`,
    heading: 'A new partner application',
    paragraphs: [
      `The influencer behind ${source} would like to send readers to ${newsletter}. Until you approve the source, its readers are not paid.`,
      message ? `Their message: “${message}”` : 'They left no message.',
      "On the Partners page you see the source's counted clicks, confirmation rate and disputes, and can approve it — at your newsletter's price or its own — or decline.",
    ],
    action: {
      label: 'Review the application',
      href: `${siteUrl}/dashboard/advertiser/partners?newsletterId=${encodeURIComponent(str(data, 'campaign_id'))}`,
    },
  })
}
