/**
 * Sends the functions' email through the provider EMAIL_PROVIDER names:
 * - `smtp` (the default where SMTP_HOST is set, as the embedded backend sets it): nodemailer to SMTP_HOST/SMTP_PORT,
 *   SMTP_USER/SMTP_PASS when set. Locally that is the backend's sink, and its mailbox shows every message.
 * - `resend` (the default anywhere else): Resend's HTTP API, because hosted edge functions cannot open connections to
 *   SMTP ports 25 and 587. `POST {RESEND_API_URL}/emails` (default https://api.resend.com, a test points it at a
 *   stub) with `Authorization: Bearer RESEND_API_KEY`, a `User-Agent` (Resend refuses requests without one, 403) and
 *   an `Idempotency-Key` (1–256 characters; Resend sends a key's email once in 24 hours), body `{ from: EMAIL_FROM,
 *   to, subject, html, text }`, answer 200 `{ id }` (https://resend.com/docs/api-reference/emails/send-email,
 *   /api-reference/introduction, /dashboard/emails/idempotency-keys). A 429 (the team's requests per second) or a
 *   5xx is sent again after Retry-After with the same key, so a retry never sends twice.
 * A function that sends email calls requireEmailSettings() first: a missing setting is a 500 naming the secret.
 */
import nodemailer from 'npm:nodemailer@^10'
import type { Transporter } from 'npm:nodemailer@^10'
import { HttpError } from './http.ts'
import { requireSecret } from './env.ts'

export type EmailMessage = {
  to: string
  subject: string
  html: string
  text: string
  /** The same key for the same email (a notification's id): a resend after a lost answer is not a second email. */
  idempotencyKey?: string
}
export type EmailProvider = 'smtp' | 'resend'

export const RESEND_API_URL = 'https://api.resend.com'
const DEFAULT_FROM = 'Growletter <no-reply@growletter.test>'
const RESEND_ATTEMPTS = 3
const RESEND_TIMEOUT_MS = 10_000
/** The longest a Retry-After is waited for inside one request; anything longer is the caller's retry. */
const RESEND_MAX_WAIT_MS = 2_000

export function emailProvider(): EmailProvider {
  const named = Deno.env.get('EMAIL_PROVIDER')?.trim().toLowerCase()
  if (named === 'smtp' || named === 'resend') return named
  if (named) throw new HttpError(500, `EMAIL_PROVIDER must be smtp or resend, not ${named}`)
  return Deno.env.get('SMTP_HOST') ? 'smtp' : 'resend'
}

/** At the start of a function that sends email: the chosen provider's settings, or a 500 naming what is missing. */
export function requireEmailSettings(): void {
  if (emailProvider() === 'resend') {
    requireSecret('RESEND_API_KEY')
    requireSecret('EMAIL_FROM')
  } else {
    requireSecret('SMTP_HOST')
    requireSecret('SMTP_PORT')
  }
}

/** `signal`: the run's own deadline (run-budget.ts); a Resend request still waiting then is abandoned. */
export async function sendEmail(message: EmailMessage, signal?: AbortSignal): Promise<void> {
  if (emailProvider() === 'resend') await sendWithResend(message, signal)
  else await sendWithSmtp(message)
}

let transport: Transporter | undefined

function smtp(): Transporter {
  if (transport) return transport
  const port = Number(requireSecret('SMTP_PORT'))
  const user = Deno.env.get('SMTP_USER')
  transport = nodemailer.createTransport({
    host: requireSecret('SMTP_HOST'),
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

async function sendWithSmtp(message: EmailMessage): Promise<void> {
  await smtp().sendMail({
    from: Deno.env.get('EMAIL_FROM') || Deno.env.get('SMTP_FROM') || DEFAULT_FROM,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resend's error body is `{ statusCode, name, message }`; anything else is shown as it came. */
function resendError(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { name?: unknown; message?: unknown }
    if (typeof parsed.message === 'string') return `${status} ${String(parsed.name ?? '')}: ${parsed.message}`.trim()
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return `${status}: ${body.slice(0, 200)}`
}

async function sendWithResend(message: EmailMessage, runSignal?: AbortSignal): Promise<void> {
  const base = (Deno.env.get('RESEND_API_URL') || RESEND_API_URL).replace(/\/+$/, '')
  const headers = {
    Authorization: `Bearer ${requireSecret('RESEND_API_KEY')}`,
    'Content-Type': 'application/json',
    'User-Agent': 'growletter-functions/1.0',
    'Idempotency-Key': message.idempotencyKey ?? crypto.randomUUID(),
  }
  const body = JSON.stringify({
    from: requireSecret('EMAIL_FROM'),
    to: [message.to],
    subject: message.subject,
    html: message.html,
    text: message.text,
  })
  let failure = ''
  let waitMs = 0
  for (let attempt = 1; attempt <= RESEND_ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(Math.min(waitMs, RESEND_MAX_WAIT_MS))
    if (runSignal?.aborted) break
    waitMs = 500 * attempt
    const timeout = AbortSignal.timeout(RESEND_TIMEOUT_MS)
    let res: Response
    try {
      res = await fetch(`${base}/emails`, {
        method: 'POST',
        headers,
        body,
        signal: runSignal ? AbortSignal.any([timeout, runSignal]) : timeout,
      })
    } catch (error) {
      failure = `Resend could not be reached: ${(error as Error).message}`
      continue
    }
    const text = await res.text()
    if (res.ok) return
    failure = `Resend refused the email (${resendError(res.status, text)})`
    // Any other 4xx is the request itself (a bad address, an unverified sender): the same again gets the same answer.
    if (res.status !== 429 && res.status < 500) throw new Error(failure)
    const retryAfter = Number(res.headers.get('retry-after'))
    if (retryAfter > 0) waitMs = retryAfter * 1000
  }
  throw new Error(failure || 'The run ran out of time before the email was sent')
}
