/**
 * What in supabase/config.toml the embedded backend does not do. Hosted Supabase and the Supabase CLI act on
 * every key; this backend acts on a subset, and a key it ignored in silence would make local behaviour differ
 * from production without anyone knowing. `npm run backend` prints one line per finding at start, and
 * `startBackend()` returns them (`configReport`), so tests can hold the project's own config.toml to zero.
 *
 * The rule: a key listed in SUPPORTED is read (auth/settings.ts, server.ts, the mailbox, the functions host).
 * Any other key is a finding unless its value switches a feature off (`false`, `""`, `[]`, `0`) or it sits in a
 * table whose `enabled` is false: a feature that is off here is off there too, so nothing differs.
 */
import { REQUIRED_CHARACTERS } from './auth/settings'
import type { SupabaseConfig } from './config'

type Table = Record<string, unknown>

/**
 * Every key path the backend reads; `*` matches any one key (a template name, a function name).
 * Sections owned by tools rather than by the running APIs (`[db]` ports and seed paths, `[studio]`) are read
 * by nobody here and listed in IGNORED_SECTIONS with the reason.
 */
const SUPPORTED = [
  'project_id',
  'api.enabled',
  'api.port',
  'api.schemas',
  'api.max_rows',
  'api.db_aggregates_enabled',
  'api.db_plan_enabled',
  'local_smtp.enabled',
  'local_smtp.port',
  'local_smtp.smtp_port',
  // The section's name before Supabase CLI 2.108 (CLI 3 refuses it), still read so an older checkout works.
  'inbucket.enabled',
  'inbucket.port',
  'inbucket.smtp_port',
  'auth.enabled',
  'auth.site_url',
  'auth.additional_redirect_urls',
  'auth.jwt_expiry',
  'auth.signing_keys_path',
  'auth.enable_refresh_token_rotation',
  'auth.refresh_token_reuse_interval',
  'auth.enable_signup',
  'auth.enable_anonymous_sign_ins',
  'auth.minimum_password_length',
  'auth.password_requirements',
  'auth.rate_limit.email_sent',
  'auth.rate_limit.sign_in_sign_ups',
  'auth.rate_limit.token_verifications',
  'auth.rate_limit.token_refresh',
  'auth.rate_limit.anonymous_users',
  'auth.email.enabled',
  // CLI 3's deprecated spelling of auth.email.enabled (the only one CLI 2's own loader knows).
  'auth.email.enable_signup',
  'auth.email.enable_confirmations',
  'auth.email.double_confirm_changes',
  'auth.email.max_frequency',
  'auth.email.otp_length',
  'auth.email.otp_expiry',
  'auth.email.template.*.subject',
  'auth.email.template.*.content_path',
  'auth.sms.enabled',
  'auth.sms.enable_signup',
  'auth.sms.enable_confirmations',
  'auth.sms.max_frequency',
  'auth.sms.test_otp.*',
  // No SMS is ever sent (only test numbers get codes), so the text and the send limit change nothing here.
  'auth.sms.template',
  'auth.rate_limit.sms_sent',
  'auth.mfa.max_enrolled_factors',
  'auth.mfa.totp.enroll_enabled',
  'auth.mfa.totp.verify_enabled',
  'edge_runtime.enabled',
  'edge_runtime.policy',
  'functions.*.verify_jwt',
]

/** Sections that configure tooling, not the APIs this backend plays; nothing in them changes an answer. */
const IGNORED_SECTIONS: Record<string, string> = {
  db: 'the database is PGlite or DATABASE_URL; ports, pooler and seed paths are the CLI’s',
  studio: 'no Studio runs locally',
  analytics: 'no log analytics run locally',
  experimental: 'CLI-only settings',
  remotes: 'CLI-only settings',
}

/** Services the backend does not provide at all: turning one on is a finding. */
const SERVICES: Record<string, string> = {
  storage: 'Storage is not provided by the embedded backend',
  realtime: 'Realtime is not provided by the embedded backend',
}

/** Services the backend always runs: switching one off in config.toml does not switch it off here. */
const ALWAYS_ON = ['api', 'auth', 'local_smtp', 'inbucket', 'edge_runtime']

const matches = (pattern: string, path: string) => {
  const a = pattern.split('.')
  const b = path.split('.')
  return a.length === b.length && a.every((part, i) => part === '*' || part === b[i])
}

const isOff = (value: unknown) =>
  value === false || value === '' || value === 0 || (Array.isArray(value) && value.length === 0)

const isTable = (value: unknown): value is Table => !!value && typeof value === 'object' && !Array.isArray(value)

/** One sentence per key the backend would ignore, e.g. `auth.sms.enable_signup = true is not supported …`. */
export function configReport(config: SupabaseConfig): string[] {
  const findings: string[] = []
  const walk = (table: Table, prefix: string) => {
    if (table.enabled === false) return
    for (const [key, value] of Object.entries(table)) {
      const path = prefix ? `${prefix}.${key}` : key
      if (!prefix && key in IGNORED_SECTIONS) continue
      if (!prefix && ALWAYS_ON.includes(key) && isTable(value) && value.enabled === false) {
        findings.push(`[${key}] enabled = false is ignored: the embedded backend always serves it.`)
        continue
      }
      if (!prefix && key in SERVICES) {
        if (isTable(value) && value.enabled === true) findings.push(`[${key}] enabled: ${SERVICES[key]}.`)
        continue
      }
      if (isTable(value)) {
        // A feature table switched on that the backend has no part of: one finding for the table, not one per key.
        if (value.enabled === true && !SUPPORTED.some((p) => matches(p, `${path}.enabled`))) {
          findings.push(`[${path}] enabled = true is not supported by the embedded backend and is ignored.`)
          continue
        }
        walk(value, path)
        continue
      }
      if (SUPPORTED.some((p) => matches(p, path))) continue
      if (isOff(value)) continue
      findings.push(`${path} = ${JSON.stringify(value)} is not supported by the embedded backend and is ignored.`)
    }
  }
  walk(config, '')
  const requirements = (config.auth as Table | undefined)?.password_requirements
  if (requirements !== undefined && !(String(requirements) in REQUIRED_CHARACTERS)) {
    findings.push(
      `auth.password_requirements = ${JSON.stringify(requirements)} is not one of ${Object.keys(REQUIRED_CHARACTERS)
        .filter(Boolean)
        .join(', ')}; no character rule is applied.`,
    )
  }
  return findings
}
