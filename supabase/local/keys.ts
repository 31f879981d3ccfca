/**
 * Local development keys. The JWT secret is public on purpose (like the Supabase CLI's demo secret): it
 * protects nothing but this machine's dev database. Production keys live in the hosted project only.
 */
import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify, errors, type JWK } from 'jose'

export const LOCAL_JWT_SECRET = 'growletter-local-dev-jwt-secret-at-least-32-chars'
const secret = new TextEncoder().encode(process.env.GROWLETTER_JWT_SECRET ?? LOCAL_JWT_SECRET)

export type ApiRole = 'anon' | 'authenticated' | 'service_role'
export type JwtClaims = { role: ApiRole; sub?: string; exp?: number; [k: string]: unknown }

// Fixed issue/expiry times keep the API keys identical across restarts, as the Supabase CLI's are.
const KEY_IAT = 1_767_225_600 // 2026-01-01
const KEY_EXP = 2_082_758_400 // 2036-01-01

export async function signJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)
}

export async function apiKeys() {
  const base = { iss: 'supabase-demo', iat: KEY_IAT, exp: KEY_EXP }
  return {
    anonKey: await signJwt({ ...base, role: 'anon' }),
    serviceRoleKey: await signJwt({ ...base, role: 'service_role' }),
  }
}

export type VerifyResult = { ok: true; claims: JwtClaims } | { ok: false; reason: 'expired' | 'invalid' }

/**
 * An asymmetric signing key from `[auth] signing_keys_path` (the Supabase CLI's `gen signing-key` file, as
 * hosted projects use): user access tokens are signed with it and carry its `kid`; its public half is served
 * at /auth/v1/.well-known/jwks.json, where supabase-js's getClaims() fetches it to verify without a request.
 * The API keys stay HS256, as on a hosted project with the legacy JWT secret still enabled.
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

/** Signs a user's access token: with the asymmetric key when one is configured, else HS256 as before. */
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
