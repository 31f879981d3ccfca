// supabase/config.toml must load in the Supabase CLI, which `db push`, `functions deploy` and `config push` run
// first: CLI 3 stops on a section it removed ([inbucket]) and warns on keys it does not know, and CLI 2's own loader
// (Go's UnmarshalExact) stops on any unknown key. This test holds every section and key of the file to the keys the
// CLI knows, so a typo or a renamed key fails here instead of in a deploy.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { configPath, LOCAL_ENV_DEFAULTS, loadConfig, mailboxPorts, type SupabaseConfig } from './config'

type KeyTree = { [key: string]: true | KeyTree }

/*
 * The keys of Supabase CLI 3.1.0's project config schema (supabase/cli, packages/config/src: base.ts, api.ts, db.ts,
 * auth/*.ts, storage.ts, edge_runtime.ts, functions.ts, experimental.ts; CLI 3 renamed inbucket.ts's section
 * [local_smtp] and removed [inbucket]), cross-checked against the config.toml `supabase init` 3.1.0 writes and
 * against the CLI binary itself: a file with every key below loads in `supabase` 3.1.0 without its warning "has
 * keys this version of the Supabase CLI does not recognize". `*` stands for a name of your choosing (a function,
 * a template, a provider, a bucket). Keys the project does not use are listed too, so adding one is not a surprise.
 */
const CLI_CONFIG_KEYS: KeyTree = {
  project_id: true,
  api: {
    enabled: true,
    port: true,
    schemas: true,
    extra_search_path: true,
    max_rows: true,
    auto_expose_new_tables: true,
    external_url: true,
    tls: { enabled: true, cert_path: true, key_path: true },
  },
  db: {
    port: true,
    shadow_port: true,
    health_timeout: true,
    major_version: true,
    orioledb_version: true,
    root_key: true,
    settings: Object.fromEntries(
      [
        'effective_cache_size',
        'logical_decoding_work_mem',
        'maintenance_work_mem',
        'max_connections',
        'max_locks_per_transaction',
        'max_parallel_maintenance_workers',
        'max_parallel_workers',
        'max_parallel_workers_per_gather',
        'max_replication_slots',
        'max_slot_wal_keep_size',
        'max_standby_archive_delay',
        'max_standby_streaming_delay',
        'max_wal_size',
        'max_wal_senders',
        'max_worker_processes',
        'session_replication_role',
        'shared_buffers',
        'statement_timeout',
        'track_activity_query_size',
        'track_commit_timestamp',
        'wal_keep_size',
        'wal_sender_timeout',
        'work_mem',
      ].map((k) => [k, true]),
    ),
    pooler: { enabled: true, port: true, pool_mode: true, default_pool_size: true, max_client_conn: true },
    vault: { '*': true },
    migrations: { enabled: true, schema_paths: true },
    seed: { enabled: true, sql_paths: true },
    network_restrictions: { enabled: true, allowed_cidrs: true, allowed_cidrs_v6: true },
    ssl_enforcement: { enabled: true },
  },
  realtime: { enabled: true, ip_version: true, max_header_length: true },
  studio: { enabled: true, port: true, api_url: true, openai_api_key: true },
  local_smtp: { enabled: true, port: true, smtp_port: true, pop3_port: true, admin_email: true, sender_name: true },
  storage: {
    enabled: true,
    file_size_limit: true,
    s3_protocol: { enabled: true },
    image_transformation: { enabled: true },
    analytics: { enabled: true, max_namespaces: true, max_tables: true, max_catalogs: true, buckets: { '*': {} } },
    vector: { enabled: true, max_buckets: true, max_indexes: true, buckets: { '*': {} } },
    buckets: { '*': { public: true, file_size_limit: true, allowed_mime_types: true, objects_path: true } },
  },
  auth: {
    enabled: true,
    site_url: true,
    additional_redirect_urls: true,
    jwt_expiry: true,
    jwt_issuer: true,
    signing_keys_path: true,
    enable_refresh_token_rotation: true,
    refresh_token_reuse_interval: true,
    enable_manual_linking: true,
    enable_signup: true,
    enable_anonymous_sign_ins: true,
    minimum_password_length: true,
    password_requirements: true,
    publishable_key: true,
    secret_key: true,
    jwt_secret: true,
    anon_key: true,
    service_role_key: true,
    rate_limit: {
      email_sent: true,
      sms_sent: true,
      anonymous_users: true,
      token_refresh: true,
      sign_in_sign_ups: true,
      token_verifications: true,
      web3: true,
    },
    captcha: { enabled: true, provider: true, secret: true },
    hook: { '*': { enabled: true, uri: true, secrets: true } },
    mfa: {
      max_enrolled_factors: true,
      totp: { enroll_enabled: true, verify_enabled: true },
      phone: { enroll_enabled: true, verify_enabled: true, otp_length: true, template: true, max_frequency: true },
      web_authn: { enroll_enabled: true, verify_enabled: true },
    },
    sessions: { timebox: true, inactivity_timeout: true },
    email: {
      enabled: true,
      enable_signup: true,
      double_confirm_changes: true,
      enable_confirmations: true,
      secure_password_change: true,
      require_current_password: true,
      max_frequency: true,
      otp_length: true,
      otp_expiry: true,
      smtp: { enabled: true, host: true, port: true, user: true, pass: true, admin_email: true, sender_name: true },
      template: { '*': { subject: true, content_path: true } },
      notification: { '*': { enabled: true, subject: true, content_path: true } },
    },
    sms: {
      enabled: true,
      enable_signup: true,
      enable_confirmations: true,
      template: true,
      max_frequency: true,
      test_otp: { '*': true },
      twilio: { enabled: true, account_sid: true, message_service_sid: true, content_sid: true, auth_token: true },
      twilio_verify: { enabled: true, account_sid: true, message_service_sid: true, auth_token: true },
      messagebird: { enabled: true, originator: true, access_key: true },
      textlocal: { enabled: true, sender: true, api_key: true },
      vonage: { enabled: true, from: true, api_key: true, api_secret: true },
    },
    external: {
      '*': {
        enabled: true,
        client_id: true,
        secret: true,
        url: true,
        redirect_uri: true,
        skip_nonce_check: true,
        email_optional: true,
      },
    },
    web3: { solana: { enabled: true }, ethereum: { enabled: true } },
    third_party: {
      firebase: { enabled: true, project_id: true },
      auth0: { enabled: true, tenant: true, tenant_region: true },
      aws_cognito: { enabled: true, user_pool_id: true, user_pool_region: true },
      clerk: { enabled: true, domain: true },
      workos: { enabled: true, issuer_url: true },
    },
    oauth_server: { enabled: true, authorization_url_path: true, allow_dynamic_registration: true },
    passkey: { enabled: true },
    webauthn: { rp_display_name: true, rp_id: true, rp_origins: true },
  },
  edge_runtime: { enabled: true, policy: true, inspector_port: true, deno_version: true, secrets: { '*': true } },
  functions: { '*': { enabled: true, verify_jwt: true, import_map: true, entrypoint: true, static_files: true } },
  analytics: {
    enabled: true,
    port: true,
    backend: true,
    vector_port: true,
    gcp_project_id: true,
    gcp_project_number: true,
    gcp_jwt_path: true,
  },
  experimental: {
    s3_host: true,
    s3_region: true,
    s3_access_key: true,
    s3_secret_key: true,
    webhooks: { enabled: true },
    pgdelta: { enabled: true, declarative_schema_path: true, format_options: true },
  },
}

/** Known to CLI 3 but deprecated there (a warning at every run, removed in CLI 4): spell them the new way. */
const CLI3_DEPRECATED = ['auth.email.enable_signup', 'auth.sms.enable_signup']

/*
 * Known to CLI 3, refused by the Go loader of CLI 2 (2.122.1's supabase-go, which `db diff` runs: "'auth.email' has
 * invalid keys: enabled"): found by loading every key above in it, which it
 * decodes but for these four. CLI 2.108 to 2.122 know [local_smtp]; 2.107 and
 * older refuse it, so the project needs CLI 2.108 or later.
 */
const CLI2_REFUSES = [
  'auth.email.enabled',
  'auth.email.require_current_password',
  'auth.sms.enabled',
  'auth.sms.twilio.content_sid',
]

/** One line per key of `config` that the Supabase CLI would stop or warn on; `remotes.<name>` holds the same keys. */
function unknownConfigKeys(config: SupabaseConfig): string[] {
  const found: string[] = []
  const walk = (table: Record<string, unknown>, tree: KeyTree, prefix: string) => {
    for (const [key, value] of Object.entries(table)) {
      const path = prefix ? `${prefix}.${key}` : key
      const known = tree[key] ?? tree['*']
      if (!known) {
        found.push(`${path}: unknown to Supabase CLI 3`)
        continue
      }
      const generic = path.replace(/^remotes\.[^.]+\./, '')
      if (CLI3_DEPRECATED.includes(generic)) found.push(`${path}: deprecated in Supabase CLI 3 (removed in 4)`)
      if (CLI2_REFUSES.includes(generic)) found.push(`${path}: refused by Supabase CLI 2`)
      const isTable = typeof value === 'object' && value !== null && !Array.isArray(value)
      if (isTable && known !== true) walk(value as Record<string, unknown>, known, path)
      else if (isTable !== (known !== true))
        found.push(`${path}: ${isTable ? 'a table' : 'a value'} where the CLI has none`)
    }
  }
  const { remotes, ...base } = config
  walk(base, CLI_CONFIG_KEYS, '')
  for (const [name, remote] of Object.entries((remotes ?? {}) as Record<string, Record<string, unknown>>)) {
    walk(remote, CLI_CONFIG_KEYS, `remotes.${name}`)
  }
  return found
}

describe('supabase/config.toml and the Supabase CLI', () => {
  it('uses only sections and keys Supabase CLI 3 knows, none it deprecates and none CLI 2 refuses', async () => {
    // Unresolved: env(...) stays as written, as the CLI reads the file.
    expect(unknownConfigKeys(await loadConfig(undefined, {}))).toEqual([])
  })

  it('names what each CLI would stop or warn on: a removed section, a typo, a deprecated or a too-new key', () => {
    const found = unknownConfigKeys({
      project_id: 'x',
      inbucket: { port: 54324 },
      local_smtp: { port: 54324, smpt_port: 54325 },
      auth: { site_url: 'x', email: { enable_signup: true, enabled: true }, external: { github: { enabled: false } } },
      functions: { hello: { verify_jwt: false, verifyJwt: false } },
      edge_runtime: { policy: { per_worker: true } },
      remotes: { staging: { project_id: 'y', inbucket: { port: 1 } } },
    })
    expect(found).toEqual([
      'inbucket: unknown to Supabase CLI 3',
      'local_smtp.smpt_port: unknown to Supabase CLI 3',
      'auth.email.enable_signup: deprecated in Supabase CLI 3 (removed in 4)',
      'auth.email.enabled: refused by Supabase CLI 2',
      'functions.hello.verifyJwt: unknown to Supabase CLI 3',
      'edge_runtime.policy: a table where the CLI has none',
      'remotes.staging.inbucket: unknown to Supabase CLI 3',
    ])
  })
})

describe('what the embedded backend makes of the file', () => {
  it('reads env(...) as the CLI does: the variable when set, else the local development URLs', async () => {
    const local = await loadConfig(undefined, {})
    expect(local.auth.site_url).toBe('http://127.0.0.1:5173')
    expect(local.auth.additional_redirect_urls).toEqual(LOCAL_ENV_DEFAULTS.GROWLETTER_REDIRECT_URL)
    // An empty variable counts as unset, as in the CLI (a `NAME=` line in an env file).
    const hosted = await loadConfig(undefined, {
      GROWLETTER_SITE_URL: 'https://growletter.app',
      GROWLETTER_REDIRECT_URL: 'https://growletter.app/**',
    })
    expect(hosted.auth.site_url).toBe('https://growletter.app')
    expect(hosted.auth.additional_redirect_urls).toEqual(['https://growletter.app/**'])
    const blank = await loadConfig(undefined, { GROWLETTER_SITE_URL: '' })
    expect(blank.auth.site_url).toBe('http://127.0.0.1:5173')
  })

  it('names no localhost URL in the file itself, so `supabase config push` cannot send one to production', async () => {
    const settings = (await readFile(configPath, 'utf8')).split('\n').filter((l) => !l.trim().startsWith('#'))
    expect(settings.filter((l) => /localhost|127\.0\.0\.1/.test(l))).toEqual([])
  })

  it('takes the mailbox ports from [local_smtp], or from [inbucket] in an older file', () => {
    expect(mailboxPorts({ local_smtp: { port: 1, smtp_port: 2 } })).toEqual({ port: 1, smtpPort: 2 })
    expect(mailboxPorts({ inbucket: { port: 3, smtp_port: 4 } })).toEqual({ port: 3, smtpPort: 4 })
    expect(mailboxPorts({})).toEqual({ port: undefined, smtpPort: undefined })
  })
})
