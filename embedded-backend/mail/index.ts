/**
 * The dev mailbox: an SMTP sink that keeps every email in memory, a page to read them, and the JSON API
 * the e2e tests use to follow links (`GET /api/messages` newest first, `GET /api/messages/:id`,
 * `DELETE /api/messages`). Both ports may be 0 (ephemeral); the bound ones are returned.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mailboxPage } from './page'
import { createSmtpSink } from './smtp-sink'
import { MessageStore } from './store'

export { createSmtpMailer } from './smtp-mailer'

export type Mailbox = {
  close(): Promise<void>
  httpUrl: string
  smtpPort: number
  store: MessageStore
  /** Pages shown beside the mailbox (the ESP sandbox), set once the backend knows its own URL. */
  links: { espUrl?: string }
}

export type MailboxOptions = { httpPort: number; smtpPort: number; host?: string }

function send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8') {
  const payload = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' })
  res.end(payload)
}

function handle(store: MessageStore, links: Mailbox['links'], req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://mailbox')
  const method = req.method ?? 'GET'
  if (url.pathname === '/' && (method === 'GET' || method === 'HEAD')) {
    const id = url.searchParams.get('id')
    const messages = store.list()
    return send(res, 200, mailboxPage(messages, id ? store.get(id) : messages[0], links), 'text/html; charset=utf-8')
  }
  if (url.pathname === '/api/messages') {
    if (method === 'GET') return send(res, 200, store.list(url.searchParams.get('to') ?? undefined))
    if (method === 'DELETE') {
      store.clear()
      return send(res, 200, { deleted: true })
    }
    return send(res, 405, { error: 'Method not allowed' })
  }
  const m = /^\/api\/messages\/([^/]+)$/.exec(url.pathname)
  if (m && method === 'GET') {
    const message = store.get(decodeURIComponent(m[1]!))
    return message ? send(res, 200, message) : send(res, 404, { error: 'Message not found' })
  }
  if (method === 'OPTIONS') {
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, DELETE, OPTIONS' })
    return res.end()
  }
  return send(res, 404, { error: 'Not found' })
}

const listen = (
  server: {
    listen: (port: number, host: string, cb: () => void) => unknown
    once: (e: 'error', cb: (err: Error) => void) => unknown
  },
  port: number,
  host: string,
) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })

export async function startMailbox({ httpPort, smtpPort, host = '127.0.0.1' }: MailboxOptions): Promise<Mailbox> {
  const store = new MessageStore()
  const links: Mailbox['links'] = {}
  const smtp = createSmtpSink(store)
  // A broken client connection must not take the backend down.
  smtp.on('error', (error) => console.error('[mail] SMTP error:', error.message))
  await listen(smtp, smtpPort, host)
  const web = http.createServer((req, res) => {
    try {
      handle(store, links, req, res)
    } catch (error) {
      console.error('[mail] request failed:', error)
      if (!res.headersSent) send(res, 500, { error: 'Internal error' })
    }
  })
  // As the API's server (server.ts): idle connections live 65 s, not Node's 5. Clients keep them for their next
  // request (the browser, Playwright's request context polling for an email); at 5 s the server could close one just
  // as a client sent on it, and on a busy machine that request failed with ECONNRESET (an end-to-end run, 2026-11-29).
  web.keepAliveTimeout = 65_000
  try {
    await listen(web, httpPort, host)
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    throw error
  }
  const boundSmtp = (smtp.server.address() as AddressInfo).port
  const boundHttp = (web.address() as AddressInfo).port
  return {
    httpUrl: `http://${host}:${boundHttp}`,
    smtpPort: boundSmtp,
    store,
    links,
    async close() {
      web.closeAllConnections()
      await Promise.all([
        new Promise<void>((resolve) => web.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ])
    },
  }
}
