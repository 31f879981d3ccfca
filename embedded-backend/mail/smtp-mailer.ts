/** The backend's outgoing mail: nodemailer over plain SMTP (the local sink, or any server set in env). */
import type { Transporter } from 'nodemailer'
import type { Mailer } from '../context'

export const DEFAULT_FROM = 'Growletter <no-reply@growletter.test>'

export type SmtpMailer = Mailer & { close(): void }

export function createSmtpMailer({
  host,
  port,
  from = DEFAULT_FROM,
}: {
  host: string
  port: number
  from?: string
}): SmtpMailer {
  // Pooled: auth emails arrive in bursts in tests, and reconnecting per message is most of the cost.
  // nodemailer loads with the first message (~0.1 s of CPU the start does not need).
  let transport: Promise<Transporter> | undefined
  const connect = () =>
    (transport ??= import('nodemailer').then((m) =>
      m.default.createTransport({ host, port, secure: false, ignoreTLS: true, pool: true }),
    ))
  return {
    async send(message) {
      await (
        await connect()
      ).sendMail({
        from: message.from ?? from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
      })
    },
    close: () => void transport?.then((t) => t.close()),
  }
}
