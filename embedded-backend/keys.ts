/**
 * Local development keys, the four a hosted project has today: the publishable key `sb_publishable_…` (→ anon)
 * and the secret key `sb_secret_…` (→ service_role), opaque strings the gateway maps to a role, beside the legacy
 * `anon` and `service_role` JWTs signed with the JWT secret. User access tokens are signed with an asymmetric
 * key (ES256) whose public half is at /auth/v1/.well-known/jwks.json, as new hosted projects sign them.
 *
 * Every value here is public on purpose, like the Supabase CLI's demo keys: they protect nothing but this
 * machine's dev database, and nothing deployed reads them (supabase/functions and the SPA get keys from their
 * environment). Production keys live in the hosted project only.
 */
import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify, errors, type JWK } from 'jose'

export const LOCAL_JWT_SECRET = 'growletter-local-dev-jwt-secret-at-least-32-chars'
const secret = new TextEncoder().encode(process.env.GROWLETTER_JWT_SECRET ?? LOCAL_JWT_SECRET)

/** Shaped like hosted keys (prefix, random part, checksum part); fixed, so .env.local stays valid across restarts. */
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_O4J50jCOuEP71a0dZ2sdag_AuD3Rt05'
export const LOCAL_SECRET_KEY = 'sb_secret_-NxuWmNn1YVhCtCbtmgbOQ_weR0qPNt'

export type ApiRole = 'anon' | 'authenticated' | 'service_role'
export type JwtClaims = { role: ApiRole; sub?: string; exp?: number; [k: string]: unknown }

/** The new API keys are opaque (`sb_…`), never JWTs: the gateway knows them by value. */
export const isOpaqueKey = (value: string) => value.startsWith('sb_')

/** The role an opaque key stands for, or undefined for a key this project did not issue. */
export function opaqueKeyRole(key: string): 'anon' | 'service_role' | undefined {
  if (key === LOCAL_PUBLISHABLE_KEY) return 'anon'
  if (key === LOCAL_SECRET_KEY) return 'service_role'
  return undefined
}

// Fixed issue/expiry times keep the API keys identical across restarts, as the Supabase CLI's are.
const KEY_IAT = 1_767_225_600 // 2026-01-01
const KEY_EXP = 2_082_758_400 // 2036-01-01

export async function signJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)
}

export type ApiKeys = { anonKey: string; serviceRoleKey: string; publishableKey: string; secretKey: string }

export async function apiKeys(): Promise<ApiKeys> {
  const base = { iss: 'supabase-demo', iat: KEY_IAT, exp: KEY_EXP }
  return {
    anonKey: await signJwt({ ...base, role: 'anon' }),
    serviceRoleKey: await signJwt({ ...base, role: 'service_role' }),
    publishableKey: LOCAL_PUBLISHABLE_KEY,
    secretKey: LOCAL_SECRET_KEY,
  }
}

export type VerifyResult = { ok: true; claims: JwtClaims } | { ok: false; reason: 'expired' | 'invalid' }

/**
 * The asymmetric key user access tokens are signed with: `[auth] signing_keys_path` (the Supabase CLI's
 * `gen signing-key` file) when config.toml names one, else LOCAL_SIGNING_JWK below. Tokens carry its `kid`; its
 * public half is served at /auth/v1/.well-known/jwks.json, where supabase-js's getClaims() fetches it to verify
 * without a request. The legacy API keys stay HS256 and HS256 tokens still verify, as on a hosted project whose
 * legacy JWT secret is still enabled beside its signing keys.
 */
type ImportedKey = Awaited<ReturnType<typeof importJWK>>

export type SigningKey = { kid: string; alg: string; privateKey: ImportedKey; publicJwk: JWK }

/**
 * Public keys of every signing key loaded in this process, by kid. Verification is process-wide (the gateway
 * and the auth API verify without a backend context), as the HS256 secret is; a kid names one key only.
 */
const publicKeys = new Map<string, { alg: string; key: ImportedKey }>()

const ASYMMETRIC = ['ES256', 'RS256', 'EdDSA']

/** Reads the first private key of a signing-keys file (a JWK or an array of them) and registers its public half. */
export async function loadSigningKey(jwks: unknown): Promise<SigningKey> {
  const list = (Array.isArray(jwks) ? jwks : [jwks]) as JWK[]
  const jwk = list.find((k) => k && typeof k === 'object' && typeof k.d === 'string')
  if (!jwk) throw new Error('the signing keys file holds no private key (a JWK with "d")')
  const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : jwk.kty === 'RSA' ? 'RS256' : jwk.kty === 'OKP' ? 'EdDSA' : '')
  if (!ASYMMETRIC.includes(alg))
    throw new Error(`signing key algorithm ${alg || jwk.kty} is not one of ${ASYMMETRIC.join(', ')}`)
  if (!jwk.kid) throw new Error('the signing key has no "kid"')
  // The public half: only the public members of EC, RSA and OKP keys.
  const publicJwk: JWK = { kty: jwk.kty, kid: jwk.kid, alg, use: 'sig', key_ops: ['verify'] }
  for (const member of ['crv', 'x', 'y', 'n', 'e'] as const)
    if (jwk[member] !== undefined) publicJwk[member] = jwk[member]
  // The CLI's file lists key_ops ["sign", "verify"]; WebCrypto refuses `verify` on a private key, so import without them.
  const privateJwk = Object.fromEntries(
    Object.entries(jwk).filter(([k]) => k !== 'key_ops' && k !== 'ext' && k !== 'use'),
  ) as JWK
  const privateKey = await importJWK({ ...privateJwk, alg }, alg)
  publicKeys.set(jwk.kid, { alg, key: await importJWK(publicJwk, alg) })
  return { kid: jwk.kid, alg, privateKey, publicJwk }
}

/**
 * The default signing key of local development: an ES256 key generated once and committed, because it signs
 * tokens for this machine's dev database only (as the Supabase CLI's demo keys do). Never use it for anything
 * deployed: a hosted project makes its own signing keys, and nothing under supabase/functions or src reads this.
 */
export const LOCAL_SIGNING_JWK: JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'NeUVbTRLj76jag1_8BpxzLcWg3Z8swAApZ8JRcg_-Bw',
  y: 'eMhVf9vjJ9-hcuxn5Rjy7hkI5L8FymBj-mJZqgo7ThY',
  d: 'lxnAdQ5JKUH4MPznvs7XrvtX55E6fep13FyNDgqRJug',
  kid: 'dda5481c-437a-4779-8b77-c4076ebc1c64',
  alg: 'ES256',
  use: 'sig',
  key_ops: ['sign', 'verify'],
}

/** Signs a user's access token: with the asymmetric key (every backend has one), or HS256 without one (tests). */
export async function signAccessToken(claims: Record<string, unknown>, key: SigningKey | undefined): Promise<string> {
  if (!key) return signJwt(claims)
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey)
}

/**
 * Verifies a token signed with the local HS256 secret or with a loaded asymmetric key (by its kid); the role
 * must be one of the three API roles.
 */
export async function verifyJwt(token: string): Promise<VerifyResult> {
  try {
    const header = decodeProtectedHeader(token)
    const asymmetric = header.alg !== 'HS256' && typeof header.kid === 'string' ? publicKeys.get(header.kid) : undefined
    const { payload } = asymmetric
      ? await jwtVerify(token, asymmetric.key, { algorithms: [asymmetric.alg] })
      : await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const role = payload.role
    if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') return { ok: false, reason: 'invalid' }
    return { ok: true, claims: payload as JwtClaims }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}
