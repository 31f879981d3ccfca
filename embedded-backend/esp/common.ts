/**
 * What the sandbox's providers share: which providers, their demo keys, base paths and lists, and small helpers
 * for reading untrusted request bodies and answering JSON.
 */
import { createHash } from 'node:crypto'
import type { ApiResponse } from '../context'

export type SandboxProvider = 'beehiiv' | 'kit' | 'mailchimp' | 'mailerlite'
export const SANDBOX_PROVIDERS: readonly SandboxProvider[] = ['beehiiv', 'kit', 'mailchimp', 'mailerlite']

/** The keys the sandbox accepts (public on purpose: they open nothing but this sandbox). Mailchimp's ends in a data centre, as real keys do. */
export const ESP_SANDBOX_KEYS: Record<SandboxProvider, string> = {
  beehiiv: 'local-beehiiv-key',
  kit: 'local-kit-key',
  mailchimp: 'local-mailchimp-key-us1',
  mailerlite: 'local-mailerlite-key',
}

/** The path prefix each provider's real base has (so `ESP_*_API_URL` = `<api>/esp/<provider><prefix>`). */
export const SANDBOX_BASE_PATHS: Record<SandboxProvider, string> = {
  beehiiv: '/v2',
  kit: '/v4',
  mailchimp: '/3.0',
  mailerlite: '/api',
}

/** Demo lists an advertiser can pick from in development. */
export const SANDBOX_TARGETS: Record<SandboxProvider, { id: string; name: string }[]> = {
  beehiiv: [
    { id: 'pub_00000000-0000-4000-8000-000000000001', name: 'Demo Weekly (beehiiv)' },
    { id: 'pub_00000000-0000-4000-8000-000000000002', name: 'Demo Daily Brief (beehiiv)' },
  ],
  kit: [
    { id: '1001', name: 'Demo newsletter sign-up (Kit)' },
    { id: '1002', name: 'Demo lead magnet (Kit)' },
  ],
  mailchimp: [
    { id: 'a1b2c3d4e5', name: 'Demo audience (Mailchimp)' },
    { id: 'f6e7d8c9b0', name: 'Demo customers (Mailchimp)' },
  ],
  mailerlite: [
    { id: '100000000000000001', name: 'Demo subscribers (MailerLite)' },
    { id: '100000000000000002', name: 'Demo partners (MailerLite)' },
  ],
}

export type ProviderRequest = {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string>
  body: unknown
}
/** An answer, and the masked credential it came with (for the log). */
export type ProviderAnswer = { response: ApiResponse; auth: string | null }

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const refused = (email: string) => !EMAIL.test(email) || /\.invalid$/i.test(email)
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body,
})
/** `Bearer loca…-key`: enough to see which key was used, not the key. */
export function mask(scheme: string, secret: string): string {
  return `${scheme} ${secret.length > 10 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '…'}`
}
export const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
export const text = (v: unknown) => (typeof v === 'string' ? v : '')
export const target = (provider: SandboxProvider, id: string) => SANDBOX_TARGETS[provider].find((t) => t.id === id)
export const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/
export const isIp = (s: string) =>
  (IPV4.test(s) && s.split('.').every((n) => Number(n) <= 255)) || (/^[0-9a-f:]+$/i.test(s) && s.includes(':'))

/** A list's page for the sandbox's list routes: members in a stable order, the cursor an opaque base64 offset. */
export function pageOf<T>(items: T[], cursor: string | null | undefined, limit: number) {
  const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) || 0 : 0
  const page = items.slice(offset, offset + limit)
  const end = offset + page.length
  return { page, offset, next: end < items.length ? Buffer.from(String(end), 'utf8').toString('base64url') : null }
}
/** A whole number from a query value within [1, max], else the fallback. */
export const limitOf = (value: string | null | undefined, fallback: number, max: number) => {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback
}
