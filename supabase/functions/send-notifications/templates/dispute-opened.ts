/**
 * An advertiser opened a dispute about the publisher's source (open_dispute): which newsletter, how many readers,
 * the earnings at stake, the advertiser's reason and the 72 hours to answer, with a link to the dispute's page.
 */
import {
  credits,
  notificationEmail,
  str,
  utcDateTime,
  type NotificationData,
  type Recipient,
  type Rendered,
} from './notification-email.ts'

export function disputeOpened(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const source = str(data, 'source_name')
  const newsletter = str(data, 'campaign_name')
  const count = Number(data.readers ?? 0)
  const readers = `${count} reader${count === 1 ? '' : 's'}`
  const due = utcDateTime(data.answer_due_at)
  const what =
    str(data, 'kind') === 'source'
      ? `An advertiser disputes your source ${source} as a whole`
      : `An advertiser disputes ${readers} your source ${source} brought`
  return notificationEmail(to, {
    subject: `A dispute about ${source}: answer by ${due}`,
    heading: 'An advertiser opened a dispute',
    paragraphs: [
      `${what}${newsletter ? ` to ${newsletter}` : ''}. ${count > 0 ? `${readers}: ${credits(data.earnings)} of your pending earnings are at stake, held until an admin decides.` : 'None of its readers is still in screening, so no earnings are at stake.'}`,
      `The advertiser's reason: “${str(data, 'reason')}”`,
      `You can answer once, with your side and links that show where the readers came from, until ${due}. The admin reads both sides before deciding; after that moment the admin decides with what is on file.`,
    ],
    action: {
      label: 'See the dispute and answer',
      href: `${siteUrl}/dashboard/publisher/disputes/${str(data, 'dispute_id')}`,
    },
  })
}
