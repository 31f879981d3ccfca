/** The backup account-confirmation email: same purpose as auth's confirmation email, sent by another path. */
import { buttonHtml, escapeHtml, renderLayout } from '../_shared/email-layout.ts'
import type { EmailMessage } from '../_shared/mailer.ts'

export function accountConfirmationEmail(to: string, link: string): EmailMessage {
  const intro = 'You asked for a new link to confirm the email address of your Growletter account.'
  const { html, text } = renderLayout({
    preheader: 'Confirm your email address to finish setting up your account.',
    heading: 'Confirm your Growletter account',
    bodyHtml: `<p style="margin:0 0 18px;line-height:1.6">${escapeHtml(intro)}</p>
<p style="margin:0 0 18px">${buttonHtml(link, 'Confirm my email address')}</p>
<p style="margin:0;color:#6b7280;font-size:13px;line-height:1.5">The link works once. If the button does not work, paste this address into your browser:<br>${escapeHtml(link)}</p>`,
    bodyText: `${intro}\n\nConfirm your email address: ${link}\n\nThe link works once.`,
    footer: 'If you did not create a Growletter account, ignore this email.',
  })
  return { to, subject: 'Confirm your Growletter account', html, text }
}
