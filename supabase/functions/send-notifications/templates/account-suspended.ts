/**
 * An admin suspended the account, or reinstated it (admin_set_user_suspended's audit row): the reason, what a
 * suspension stops, and how to appeal. The sign-in page only says the account is suspended and points here.
 */
import { notificationEmail, str, type NotificationData, type Recipient, type Rendered } from './notification-email.ts'

/** The contact form, prefilled to appeal (src/app/routes/contact.tsx reads `subject` and `email`). */
export const appealHref = (siteUrl: string, email: string) =>
  `${siteUrl}/contact?subject=${encodeURIComponent('Appeal my account suspension')}&email=${encodeURIComponent(email)}`

export function accountSuspended(to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const reason = str(data, 'reason')
  if (str(data, 'status') === 'reinstated') {
    return notificationEmail(to, {
      subject: 'Your Growletter account is active again',
      heading: 'Your account is active again',
      paragraphs: [
        'An admin lifted the suspension of your account: you can sign in, and your links and newsletters work again.',
        reason ? `The admin's note: “${reason}”` : '',
      ],
      action: { label: 'Sign in', href: `${siteUrl}/login` },
    })
  }
  return notificationEmail(to, {
    subject: 'Your Growletter account is suspended',
    heading: 'Your account is suspended',
    paragraphs: [
      'An admin suspended your account. While it is suspended you cannot sign in, and your links and newsletters stop earning and paying. Nothing you earned fairly before is taken without a decision.',
      reason ? `The reason: “${reason}”` : '',
      'If you think this is a mistake, tell us why through the contact form; a person reads every appeal and answers by email.',
    ],
    action: { label: 'Appeal the suspension', href: appealHref(siteUrl, to.email) },
  })
}
