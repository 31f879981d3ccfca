/**
 * Local development keys. The JWT secret is public on purpose (like the Supabase CLI's demo secret): it
 * protects nothing but this machine's dev database. Production keys live in the hosted project only.
 */
import { SignJWT, jwtVerify, errors } from 'jose'

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

/** Verifies an HS256 token signed with the local secret; the role must be one of the three API roles. */
export async function verifyJwt(token: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const role = payload.role
    if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role') return { ok: false, reason: 'invalid' }
    return { ok: true, claims: payload as JwtClaims }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}
