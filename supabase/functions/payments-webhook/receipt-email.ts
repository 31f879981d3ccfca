/** The deposit receipt the webhook sends in local development (in production Stripe emails its own). */
import { buttonHtml, escapeHtml, renderLayout } from '../_shared/email-layout.ts'
import type { EmailMessage } from '../_shared/mailer.ts'

export type Receipt = {
  to: string
  amount: number
  balance: number | null
  reference: string
  paidAt: Date
  walletUrl: string
}

const credits = (n: number) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} credits`
const dollars = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n)

export function depositReceiptEmail({ to, amount, balance, reference, paidAt, walletUrl }: Receipt): EmailMessage {
  const date = paidAt.toUTCString()
  const rows: [string, string][] = [
    ['Credits added', credits(amount)],
    ['Charged', `${dollars(amount)} (USD)`],
    ['Date', date],
    ['Payment reference', reference],
    ...(balance === null ? [] : ([['Wallet balance now', credits(balance)]] as [string, string][])),
  ]
  const table = rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:6px 12px 6px 0;color:#6b7280">${escapeHtml(k)}</td><td style="padding:6px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
    )
    .join('')
  const { html, text } = renderLayout({
    preheader: `${credits(amount)} added to your Growletter wallet.`,
    heading: 'Your deposit receipt',
    bodyHtml: `<p style="margin:0 0 18px;line-height:1.6">Thank you: your payment went through and the credits are in your wallet.</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 20px;font-size:14px">${table}</table>
<p style="margin:0">${buttonHtml(walletUrl, 'Open my wallet')}</p>`,
    bodyText: `Thank you: your payment went through and the credits are in your wallet.\n\n${rows
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n\nYour wallet: ${walletUrl}`,
    footer: 'Keep this email as your receipt. 1 credit = 1 US dollar.',
  })
  return { to, subject: `Receipt: ${credits(amount)} added to your wallet`, html, text }
}
