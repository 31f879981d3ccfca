/**
 * Sends email over SMTP with nodemailer: locally the embedded backend's sink (its mailbox shows every
 * message), in production the provider given by SMTP_HOST/SMTP_PORT and, when set, SMTP_USER/SMTP_PASS.
 * One pooled transport per isolate.
 */
import nodemailer from 'npm:nodemailer@^10'
import type { Transporter } from 'npm:nodemailer@^10'
import { requireEnv } from './env.ts'

export type EmailMessage = { to: string; subject: string; html: string; text: string }

let transport: Transporter | undefined

function smtp(): Transporter {
  if (transport) return transport
  const port = Number(requireEnv('SMTP_PORT'))
  const user = Deno.env.get('SMTP_USER')
  transport = nodemailer.createTransport({
    host: requireEnv('SMTP_HOST'),
    port,
    secure: port === 465,
    auth: user ? { user, pass: Deno.env.get('SMTP_PASS') ?? '' } : undefined,
    // The client name sent in EHLO; naming it avoids reading the OS host name (no --allow-sys needed).
    name: 'growletter-functions',
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  return transport
}

export async function sendEmail(message: EmailMessage): Promise<void> {
  await smtp().sendMail({
    from: Deno.env.get('SMTP_FROM') ?? 'Growletter <no-reply@growletter.test>',
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
  })
}
