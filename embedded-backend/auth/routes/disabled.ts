/**
 * GoTrue's own answers for what this backend does not provide: SAML SSO, manual identity linking,
 * OAuth providers, Web3 and OpenID Connect ID-token sign-in. These are the answers a hosted project gives
 * with the feature off, so supabase-js code meets the same error here as there; a config.toml that turns one
 * on is reported at start (config-report.ts) rather than silently ignored.
 */
import type { ApiResponse } from '../../context'
import { API_VERSION_HEADERS, httpError } from '../errors'
import type { Route } from '../env'
import { readBody, requireUser, str } from '../request'

/** The OAuth providers GoTrue knows by name (`/authorize?provider=`, `/settings` `external`). */
export const OAUTH_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'slack',
  'slack_oidc',
  'snapchat',
  'spotify',
  'twitch',
  'twitter',
  'vercel_marketplace',
  'workos',
  'x',
  'zoom',
] as const

// The issuer GoTrue names in "Provider (issuer …) is not enabled" for each ID-token provider it knows.
const ID_TOKEN_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  google: 'https://accounts.google.com',
  kakao: 'https://kauth.kakao.com',
  keycloak: '',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  vercel_marketplace: 'https://marketplace.vercel.com',
}

/** POST /sso (and /sso/saml/*): GoTrue with SAML off. */
export const sso: Route = async () => {
  throw httpError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled')
}

/** /passkeys/…: GoTrue with `[auth.passkey]` off (checked before anything else in that route group). */
export const passkeys: Route = async () => {
  throw httpError(404, 'passkey_disabled', 'Passkeys are disabled')
}

/** The OAuth 2.1 server's routes (/oauth/…, its metadata, grants and client admin): GoTrue with it off. */
export const oauthServer: Route = async () => {
  throw httpError(404, 'feature_disabled', 'OAuth server is disabled')
}

/** /user/oauth/grants: signed-in users only, then the switch. */
export const oauthGrants: Route = async (env, req) => {
  await requireUser(env.ctx.db, req)
  throw httpError(404, 'feature_disabled', 'OAuth server is disabled')
}

/** GET /user/identities/authorize and DELETE /user/identities/{id}: signed-in users only, then the switch. */
export const identities: Route = async (env, req) => {
  await requireUser(env.ctx.db, req)
  throw httpError(404, 'manual_linking_disabled', 'Manual linking is disabled')
}

/** GET /authorize?provider=…: every OAuth provider is off here, as in a project that enabled none. */
export const authorize: Route = async (_env, req) => {
  const provider = (req.query.get('provider') ?? '').toLowerCase()
  const reason = (OAUTH_PROVIDERS as readonly string[]).includes(provider)
    ? 'provider is not enabled'
    : provider.startsWith('custom:')
      ? 'custom OAuth providers are disabled'
      : `Provider ${provider} could not be found`
  throw httpError(400, 'validation_failed', `Unsupported provider: ${reason}`)
}

/** grant_type=web3 with neither Solana nor Ethereum sign-in enabled. */
export const web3Grant: Route = async () => {
  throw httpError(422, 'web3_provider_disabled', 'Web3 provider is disabled')
}

/** An OAuth-style error body (`error`, `error_description`), which GoTrue uses for malformed grants. */
const oauthError = (description: string): ApiResponse => ({
  status: 400,
  headers: { ...API_VERSION_HEADERS },
  body: { error: 'invalid request', error_description: description },
})

/** grant_type=id_token: the request is checked as GoTrue does, then the provider is not enabled. */
export const idTokenGrant: Route = async (_env, req) => {
  const body = readBody(req)
  const idToken = str(body, 'id_token') ?? ''
  const provider = (str(body, 'provider') ?? '').toLowerCase()
  const issuer = str(body, 'issuer') ?? ''
  if (!idToken) return oauthError('id_token required')
  if (!provider && (!str(body, 'client_id') || !issuer)) return oauthError('provider or client_id and issuer required')
  if (provider.startsWith('custom:')) throw httpError(400, 'validation_failed', 'Custom OAuth providers are disabled')
  const known =
    provider in ID_TOKEN_ISSUERS
      ? provider
      : Object.keys(ID_TOKEN_ISSUERS).find((p) => ID_TOKEN_ISSUERS[p] && ID_TOKEN_ISSUERS[p] === issuer)
  if (!known) throw httpError(400, 'validation_failed', `Custom OIDC provider "${provider}" not allowed`)
  throw httpError(400, 'provider_disabled', `Provider (issuer "${ID_TOKEN_ISSUERS[known]}") is not enabled`)
}
