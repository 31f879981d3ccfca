/** An admin approved or rejected the changes an owner proposed to their listed source or newsletter. */
import { notificationEmail, str, type NotificationData, type Recipient, type Rendered } from './notification-email.ts'

const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  image_url: 'image',
  website_url: 'website',
  url: 'URL',
  category: 'category',
  platform: 'platform',
  sample_issue_url: 'sample issue link',
  frequency: 'frequency',
  audience_size: 'audience size',
  audience_line: 'who it is for',
}

export function revisionDecided(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const name = str(data, 'name')
  const note = str(data, 'note')
  const isSource = str(data, 'subject_type') === 'audience_source'
  const what = isSource ? 'source' : 'newsletter'
  const fields = Array.isArray(data.fields) ? data.fields.map((f) => FIELD_WORDS[String(f)] ?? String(f)) : []
  const changed = fields.length > 0 ? ` (${fields.join(', ')})` : ''
  const action = isSource
    ? { label: 'Open your sources', href: `${siteUrl}/dashboard/publisher/sources` }
    : { label: 'Open your newsletters', href: `${siteUrl}/dashboard/advertiser/manage` }
  const withNote = note ? `The reviewer's note: “${note}”` : ''
  if (str(data, 'decision') === 'approved') {
    return notificationEmail(to, {
      subject: `Your changes to “${name}” are approved`,
      heading: 'Your changes are live',
      paragraphs: [
        `The changes you proposed to your ${what} “${name}”${changed} are approved and visible now.`,
        withNote,
      ],
      action,
    })
  }
  return notificationEmail(to, {
    subject: `Your changes to “${name}” were not approved`,
    heading: 'Your changes were not approved',
    paragraphs: [
      `The changes you proposed to your ${what} “${name}”${changed} were not approved; the approved version stays live.`,
      withNote,
      'You can edit it and propose the changes again.',
    ],
    action,
  })
}
