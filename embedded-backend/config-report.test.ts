// config.toml keys the embedded backend does not act on are named at start (config-report.ts), never ignored
// in silence: the project's own config has none; a config like supabase-js's test project has several.
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config'
import { configReport } from './config-report'

describe('configReport', () => {
  it("finds nothing in the project's own supabase/config.toml", async () => {
    expect(configReport(await loadConfig())).toEqual([])
  })

  it('names keys and switched-on features the backend lacks, one line per feature table', () => {
    const findings = configReport({
      api: { enabled: true, schemas: ['public'], extra_search_path: ['public', 'extensions'], tls: { enabled: false } },
      storage: { enabled: true },
      inbucket: { enabled: false, port: 54324 },
      realtime: { enabled: false },
      auth: {
        site_url: 'http://127.0.0.1:3000',
        jwt_secret: 'super-secret',
        signing_keys_path: './signing_keys.json',
        enable_manual_linking: false,
        password_requirements: 'emoji_only',
        sms: { enable_signup: true, test_otp: { '1234567890': '123456' }, twilio: { enabled: true, account_sid: 'x' } },
        external: { google: { enabled: true, client_id: 'id' }, github: { enabled: false, client_id: 'id' } },
        passkey: { enabled: true },
        email: { enable_signup: true, secure_password_change: false },
      },
    })
    expect(findings).toEqual([
      'api.extra_search_path = ["public","extensions"] is not supported by the embedded backend and is ignored.',
      '[storage] enabled: Storage is not provided by the embedded backend.',
      '[inbucket] enabled = false is ignored: the embedded backend always serves it.',
      'auth.jwt_secret = "super-secret" is not supported by the embedded backend and is ignored.',
      '[auth.sms.twilio] enabled = true is not supported by the embedded backend and is ignored.',
      '[auth.external.google] enabled = true is not supported by the embedded backend and is ignored.',
      '[auth.passkey] enabled = true is not supported by the embedded backend and is ignored.',
      'auth.password_requirements = "emoji_only" is not one of letters_digits, lower_upper_letters_digits, lower_upper_letters_digits_symbols; no character rule is applied.',
    ])
  })
})
