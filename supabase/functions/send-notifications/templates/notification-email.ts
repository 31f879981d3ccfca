/**
 * What every notification template shares: the branded layout of the functions' emails, the reader's name,
 * credits formatting and a link into the dashboard.
 */
import { buttonHtml, escapeHtml, renderLayout } from '../../_shared/email-layout.ts'

export type Rendered = { subject: string; html: string; text: string }
export type Recipient = { email: string; name: string | null }
export type NotificationData = Record<string, unknown>

export const str = (data: NotificationData, key: string): string => {
  const v = data[key]
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : ''
}

/** 12.5 → "12.50 credits" (1 credit = 1 US dollar). */
export const credits = (value: unknown): string => `${Number(value ?? 0).toFixed(2)} credits`

export type EmailParts = {
  subject: string
  heading: string
  /** Plain paragraphs; escaped here. */
  paragraphs: string[]
  action?: { label: string; href: string }
}

export function notificationEmail(to: Recipient, parts: EmailParts): Rendered {
  const greeting = to.name ? `Hi ${to.name},` : 'Hi,'
  const lines = [greeting, ...parts.paragraphs.filter((p) => p.trim() !== '')]
  const bodyHtml =
    lines.map((p) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.6">${escapeHtml(p)}</p>`).join('\n') +
    (parts.action ? `<p style="margin:22px 0 6px">${buttonHtml(parts.action.href, parts.action.label)}</p>` : '')
  const bodyText = lines.join('\n\n') + (parts.action ? `\n\n${parts.action.label}: ${parts.action.href}` : '')
  const { html, text } = renderLayout({
    preheader: parts.paragraphs[0] ?? parts.heading,
    heading: parts.heading,
    bodyHtml,
    bodyText,
    footer: `You receive this email because you have a Growletter account (${to.email}).`,
  })
  return { subject: parts.subject, html, text }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * "Dec 15, 2026, 2:00 PM UTC": a moment as the database words it in its messages (decide_dispute's deadline), written
 * out rather than through Intl so every runtime renders the same characters; UTC, because an email has no time zone.
 */
export function utcDateTime(value: unknown): string {
  const date = new Date(typeof value === 'string' || typeof value === 'number' ? value : Number.NaN)
  if (Number.isNaN(date.getTime())) return ''
  const hours = date.getUTCHours()
  const minutes = String(date.getUTCMinutes()).padStart(2, '0')
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'} UTC`
}
