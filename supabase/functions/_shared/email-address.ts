/**
 * Email address rules shared by the functions: one normal form, a format check a person can satisfy,
 * disposable domains refused, and `+tag` folding so one inbox counts once (the database's fold_email
 * folds the same way for its duplicate rule).
 */
import { DISPOSABLE_DOMAINS } from './disposable-domains.ts'

const MAX_LENGTH = 254
// Pragmatic, not RFC 5322: one @, no spaces, a dot in the domain, sane labels.
const FORMAT =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase()
}

export function isValidEmail(email: string): boolean {
  if (email.length > MAX_LENGTH || !FORMAT.test(email)) return false
  const [local] = email.split('@')
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..')
}

/** local+tag@domain → local@domain (lower case), the key for per-inbox limits and duplicate checks. */
export function foldEmail(email: string): string {
  return normalizeEmail(email).replace(/\+[^@]*@/, '@')
}

/**
 * One inbox, one key (the database's canonical_email): lower case, +tag removed, and for Gmail the dots
 * removed and googlemail.com folded into gmail.com — the key of per-inbox limits.
 */
export function canonicalEmail(email: string): string {
  const normal = normalizeEmail(email)
  const at = normal.lastIndexOf('@')
  if (at < 0) return normal.split('+')[0]
  const local = normal.slice(0, at).split('+')[0]
  const domain = normal.slice(at + 1)
  return domain === 'gmail.com' || domain === 'googlemail.com'
    ? `${local.replaceAll('.', '')}@gmail.com`
    : `${local}@${domain}`
}

/** True for a throwaway-inbox domain or any subdomain of one. */
export function isDisposableEmail(email: string): boolean {
  const domain = normalizeEmail(email).split('@')[1] ?? ''
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    if (DISPOSABLE_DOMAINS.has(labels.slice(i).join('.'))) return true
  }
  return false
}
