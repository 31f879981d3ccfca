/**
 * The one email a subscribe request sends: every newsletter chosen, each pending one with its own
 * confirmation link, each already confirmed one marked as such and given no link. With two or more pending,
 * one "Confirm all" button confirms them all at once; each newsletter's own button confirms only that one. Beside
 * each confirm button, "Decline this newsletter" (and "Decline all" with two or more) lets a reader who did not ask
 * say so: the same token, on the decline page. When every one is already confirmed, an informational email says
 * so (the API's answer does not: only the inbox learns it).
 */
import { buttonHtml, escapeHtml, linkHtml, renderLayout } from '../_shared/email-layout.ts'
import type { EmailMessage } from '../_shared/mailer.ts'

/** A pending newsletter has both links (the same token); one already confirmed has neither. */
export type NewsletterLine = { newsletterName: string; confirmUrl?: string; declineUrl?: string }
export type RequestLinks = { confirmAllUrl: string; declineAllUrl: string }

export const DECLINE_ONE = 'Decline this newsletter'
export const declineAllLabel = (count: number) => `Decline all ${count} newsletters`

export function confirmationEmail(to: string, lines: NewsletterLine[], all?: RequestLinks): EmailMessage {
  const confirmAllUrl = all?.confirmAllUrl
  const pending = lines.filter((l) => l.confirmUrl)
  if (pending.length === 0) return alreadySubscribedEmail(to, lines)
  const subject =
    pending.length === 1
      ? `Confirm your subscription to ${pending[0].newsletterName}`
      : `Confirm your ${pending.length} newsletter subscriptions`
  const itemsHtml = lines
    .map((l) =>
      l.confirmUrl
        ? `<tr><td style="padding:12px 0;border-top:1px solid #e5e7eb"><p style="margin:0 0 10px;font-weight:600">${escapeHtml(l.newsletterName)}</p>${buttonHtml(l.confirmUrl, confirmAllUrl ? 'Confirm only this one' : 'Confirm subscription')}${l.declineUrl ? `<span style="display:inline-block;margin-left:16px">${linkHtml(l.declineUrl, DECLINE_ONE)}</span>` : ''}</td></tr>`
        : `<tr><td style="padding:12px 0;border-top:1px solid #e5e7eb"><p style="margin:0;font-weight:600">${escapeHtml(l.newsletterName)}</p><p style="margin:4px 0 0;color:#6b7280">You are already subscribed to this newsletter.</p></td></tr>`,
    )
    .join('\n')
  const itemsText = lines
    .map((l) =>
      l.confirmUrl
        ? `* ${l.newsletterName}\n  ${confirmAllUrl ? 'Confirm only this one' : 'Confirm'}: ${l.confirmUrl}${l.declineUrl ? `\n  ${DECLINE_ONE}: ${l.declineUrl}` : ''}`
        : `* ${l.newsletterName}\n  You are already subscribed to this newsletter.`,
    )
    .join('\n\n')
  const intro =
    pending.length === 1
      ? 'Someone (hopefully you) asked to subscribe this address to a newsletter on Growletter. Confirm it with the button below.'
      : confirmAllUrl
        ? `Someone (hopefully you) asked to subscribe this address to ${pending.length} newsletters on Growletter. Confirm them all with one click, or only the ones you want with their own buttons: any you leave out is not subscribed.`
        : 'Someone (hopefully you) asked to subscribe this address to newsletters on Growletter. Confirm each one you want with its button.'
  const { html, text } = renderLayout({
    preheader: 'One click to confirm, and nothing happens if you do not.',
    heading: pending.length === 1 ? 'Confirm your subscription' : 'Confirm your subscriptions',
    bodyHtml: `<p style="margin:0 0 12px;line-height:1.6">${escapeHtml(intro)}</p>
${confirmAllUrl ? `<p style="margin:0 0 16px">${buttonHtml(confirmAllUrl, `Confirm all ${pending.length} newsletters`)}</p>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${itemsHtml}</table>
${all ? `<p style="margin:16px 0 0;color:#6b7280;font-size:13px">Did not ask for these? ${linkHtml(all.declineAllUrl, declineAllLabel(pending.length))}</p>` : ''}
<p style="margin:16px 0 0;color:#6b7280;font-size:13px;line-height:1.5">Each link works once and expires in 48 hours.</p>`,
    bodyText: `${intro}\n\n${confirmAllUrl ? `Confirm all ${pending.length} newsletters: ${confirmAllUrl}\n\n` : ''}${itemsText}\n\n${all ? `Did not ask for these? ${declineAllLabel(pending.length)}: ${all.declineAllUrl}\n\n` : ''}Each link works once and expires in 48 hours.`,
    footer:
      'If you did not ask for this, decline with the link beside each newsletter, or ignore this email: you will not be subscribed, and nobody is charged for your address.',
  })
  return { to, subject, html, text }
}

/** Every newsletter asked for is one this address already subscribes to: nothing to confirm, nothing changes. */
function alreadySubscribedEmail(to: string, lines: NewsletterLine[]): EmailMessage {
  const subject =
    lines.length === 1
      ? `You are already subscribed to ${lines[0].newsletterName}`
      : `You are already subscribed to these ${lines.length} newsletters`
  const intro =
    lines.length === 1
      ? 'Someone (hopefully you) asked to subscribe this address to a newsletter on Growletter that it already receives. There is nothing to confirm.'
      : 'Someone (hopefully you) asked to subscribe this address to newsletters on Growletter that it already receives. There is nothing to confirm.'
  const itemsHtml = lines
    .map(
      (l) =>
        `<tr><td style="padding:12px 0;border-top:1px solid #e5e7eb"><p style="margin:0;font-weight:600">${escapeHtml(l.newsletterName)}</p></td></tr>`,
    )
    .join('\n')
  const itemsText = lines.map((l) => `* ${l.newsletterName}`).join('\n')
  const { html, text } = renderLayout({
    preheader: 'You are already subscribed; nothing changes.',
    heading: 'Already subscribed',
    bodyHtml: `<p style="margin:0 0 12px;line-height:1.6">${escapeHtml(intro)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${itemsHtml}</table>`,
    bodyText: `${intro}\n\n${itemsText}`,
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
  })
  return { to, subject, html, text }
}
