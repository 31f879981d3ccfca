/**
 * The [auth] section of supabase/config.toml, read with Supabase's defaults. Read on every request
 * (it is cheap) so tests can change `ctx.config` — e.g. raise rate limits — without restarting.
 */
import type { BackendContext } from '../context'
import type { SigningKey } from '../keys'
import { REQUIRED_CHARACTER_SETS } from '../../supabase/functions/_shared/rules/password.ts'

export type AuthSettings = {
  siteUrl: string
  /** The asymmetric key user tokens are signed with (`signing_keys_path`), else none: HS256. */
  signingKey?: SigningKey
  redirectUrls: string[]
  jwtExpiry: number
  rotation: boolean
  reuseInterval: number
  signupEnabled: boolean
  /** `[auth] enable_anonymous_sign_ins` (Supabase CLI default false). */
  anonymousEnabled: boolean
  /** `[auth] enable_manual_linking`: the backend links no identities, so on is reported as unsupported. */
  manualLinkingEnabled: boolean
  emailSignupEnabled: boolean
  confirmEmail: boolean
  doubleConfirmChanges: boolean
  minPasswordLength: number
  /** From `password_requirements` (checked in password-policy.ts); an unknown value is reported at start and means none. */
  requiredCharacters: readonly string[]
  maxFrequencySeconds: number
  otpLength: number
  otpExpiry: number
  rateLimit: {
    emailSent: number
    signInSignUps: number
    tokenVerifications: number
    tokenRefresh: number
    /** Anonymous sign-ins per hour per IP (`anonymous_users`, default 30). */
    anonymousUsers: number
    /** Auth emails one inbox (inboxOf) receives in 5 minutes, whichever accounts they are for. */
    emailsPerInbox: number
    /** Failed passwords per account in 15 minutes (at most 5 from each address) before new addresses wait. */
    passwordFailuresPerAccount: number
  }
  templates: Record<string, { subject?: string; content_path?: string }>
  /** `[auth.sms]`: phone sign-ups (routes/phone.ts); codes only for the numbers of `test_otp`. */
  sms: {
    enabled: boolean
    autoconfirm: boolean
    testOtp: Record<string, string>
    maxFrequencySeconds: number
    otpExpiry: number
  }
  mfa: { maxFactors: number; totpEnroll: boolean; totpVerify: boolean; challengeAndVerifyPerMinute: number }
}

type Table = Record<string, unknown>
const table = (value: unknown): Table => (value && typeof value === 'object' ? (value as Table) : {})
const num = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback)

/** "1s", "5m", "1h" → seconds, as the Supabase CLI's durations. */
export function durationSeconds(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value
  const m = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim()) : null
  if (!m) return fallback
  const n = Number(m[1])
  return m[2] === 'ms' ? n / 1000 : m[2] === 's' ? n : m[2] === 'm' ? n * 60 : n * 3600
}

/** `[auth] password_requirements` → the character sets a password needs one of each (the shared rule module's). */
export const REQUIRED_CHARACTERS: Record<string, readonly string[]> = REQUIRED_CHARACTER_SETS

export function authSettings(ctx: BackendContext): AuthSettings {
  const auth = table(ctx.config.auth)
  const email = table(auth.email)
  const rate = table(auth.rate_limit)
  const sms = table(auth.sms)
  const mfa = table(auth.mfa)
  const totp = table(mfa.totp)
  // A whole e2e run signs in from one loopback address; it may scale the limits up rather than trip them.
  const scale = Math.max(1, Number(process.env.GROWLETTER_AUTH_RATE_LIMIT_SCALE) || 1)
  return {
    signingKey: ctx.signingKey,
    siteUrl: typeof auth.site_url === 'string' ? auth.site_url : 'http://127.0.0.1:3000',
    redirectUrls: Array.isArray(auth.additional_redirect_urls) ? auth.additional_redirect_urls.map(String) : [],
    jwtExpiry: num(auth.jwt_expiry, 3600),
    rotation: bool(auth.enable_refresh_token_rotation, true),
    reuseInterval: num(auth.refresh_token_reuse_interval, 10),
    signupEnabled: bool(auth.enable_signup, true),
    anonymousEnabled: bool(auth.enable_anonymous_sign_ins, false),
    manualLinkingEnabled: bool(auth.enable_manual_linking, false),
    // `[auth.email] enabled` (Supabase CLI 3), or its older spelling enable_signup.
    emailSignupEnabled: bool(email.enabled ?? email.enable_signup, true),
    confirmEmail: bool(email.enable_confirmations, true),
    doubleConfirmChanges: bool(email.double_confirm_changes, true),
    minPasswordLength: num(auth.minimum_password_length, 6),
    requiredCharacters: REQUIRED_CHARACTERS[String(auth.password_requirements ?? '')] ?? [],
    maxFrequencySeconds: durationSeconds(email.max_frequency, 60),
    otpLength: num(email.otp_length, 6),
    otpExpiry: num(email.otp_expiry, 3600),
    rateLimit: {
      emailSent: num(rate.email_sent, 30) * scale,
      signInSignUps: num(rate.sign_in_sign_ups, 30) * scale,
      tokenVerifications: num(rate.token_verifications, 30) * scale,
      tokenRefresh: num(rate.token_refresh, 150) * scale,
      anonymousUsers: num(rate.anonymous_users, 30) * scale,
      // Not settings of the Supabase CLI: the embedded backend's own, as constants.
      emailsPerInbox: 5 * scale,
      passwordFailuresPerAccount: 50 * scale,
    },
    templates: table(email.template) as AuthSettings['templates'],
    sms: {
      enabled: bool(sms.enabled ?? sms.enable_signup, false),
      autoconfirm: !bool(sms.enable_confirmations, false),
      testOtp: Object.fromEntries(
        Object.entries(table(sms.test_otp)).map(([phone, code]) => [phone.replace(/^\+/, ''), String(code)]),
      ),
      maxFrequencySeconds: durationSeconds(sms.max_frequency, 5),
      // SMS codes live as long as emailed ones here (`[auth.email] otp_expiry`).
      otpExpiry: num(email.otp_expiry, 3600),
    },
    mfa: {
      maxFactors: num(mfa.max_enrolled_factors, 10),
      totpEnroll: bool(totp.enroll_enabled, true),
      totpVerify: bool(totp.verify_enabled, true),
      // GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY default: 15 a minute per IP.
      challengeAndVerifyPerMinute: 15 * scale,
    },
  }
}

/** GoTrue accepts a redirect only to the site URL or an allowed URL (prefix or `*` glob); else the site URL. */
export function safeRedirect(settings: AuthSettings, requested: string | null | undefined): string {
  if (!requested) return settings.siteUrl
  let url: URL
  try {
    url = new URL(requested)
  } catch {
    return settings.siteUrl
  }
  const allowed = [settings.siteUrl, ...settings.redirectUrls]
  const ok = allowed.some((pattern) => {
    if (pattern.includes('*')) {
      // Glob as GoTrue reads it: `*` stays within one host label or path segment, `**` spans anything.
      const source = pattern
        .split('**')
        .map((part) => part.split('*').map(escapeRegExp).join('[^./]*'))
        .join('.*')
      return new RegExp(`^${source}$`).test(requested)
    }
    try {
      const base = new URL(pattern)
      return url.origin === base.origin && url.pathname.startsWith(base.pathname.replace(/\/$/, '') || '/')
    } catch {
      return false
    }
  })
  return ok ? requested : settings.siteUrl
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
