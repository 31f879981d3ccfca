/**
 * The SMTP side of the dev mailbox: accepts every message from anyone, without auth or TLS, parses it
 * with mailparser and stores it. It listens on loopback only; nothing is ever relayed.
 */
import type { AddressObject } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import type { MessageStore } from './store'

const MAX_SIZE = 10 * 1024 * 1024

// mailparser takes ~0.1 s of CPU to load; it loads with the first message, not with the backend.
let parser: Promise<typeof import('mailparser').simpleParser> | undefined
const loadParser = () => (parser ??= import('mailparser').then((m) => m.simpleParser))

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  const list = Array.isArray(value) ? value : value ? [value] : []
  return list
    .flatMap((a) => a.value)
    .map((a) => a.address ?? '')
    .filter(Boolean)
    .join(', ')
}

export function createSmtpSink(store: MessageStore): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_SIZE,
    logger: false,
    // Senders keep pooled connections open; on close, end them after a moment instead of the default 30 s.
    closeTimeout: 250,
    onData(stream, _session, callback) {
      loadParser()
        .then((simpleParser) => simpleParser(stream))
        .then((mail) => {
          store.add({
            from: mail.from?.text ?? '',
            to: addresses(mail.to),
            subject: mail.subject ?? '',
            date: (mail.date ?? new Date()).toISOString(),
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          })
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
}
