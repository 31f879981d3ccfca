/** GET /health and GET /settings: what GoTrue reports about itself and its enabled providers. */
import { json } from '../errors'
import type { Route } from '../env'

export const health: Route = async () =>
  json({
    version: 'growletter-local',
    name: 'GoTrue',
    description: 'GoTrue-compatible auth of the embedded Growletter backend',
  })

/**
 * What this backend does, in GoTrue's shape and field order. The truth, not config.toml's wishes: a provider
 * config.toml enables but the backend cannot serve (OAuth, SAML, SMS, passkeys) is reported off here, and named
 * at start by config-report.ts, so a client that reads /settings never offers a button that cannot work.
 */
/** GET /.well-known/jwks.json: the public signing keys; none while tokens are HS256 (as GoTrue answers). */
export const jwks: Route = async (env) =>
  json({ keys: env.settings.signingKey ? [env.settings.signingKey.publicJwk] : [] }, 200, {
    'Cache-Control': 'public, max-age=600',
  })

export const settingsRoute: Route = async (env) => {
  const s = env.settings
  const external: Record<string, boolean> = { anonymous_users: s.anonymousEnabled }
  for (const provider of GOTRUE_SETTINGS_PROVIDERS) external[provider] = false
  external.email = s.emailSignupEnabled
  external.phone = s.sms.enabled
  return json({
    external,
    disable_signup: !s.signupEnabled,
    mailer_autoconfirm: !s.confirmEmail,
    phone_autoconfirm: s.sms.enabled && s.sms.autoconfirm,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  })
}

// The providers GoTrue 2.185 lists in /settings, in its order.
const GOTRUE_SETTINGS_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'zoom',
]
