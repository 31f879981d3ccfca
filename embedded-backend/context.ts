/**
 * The contract between the gateway (server.ts) and the APIs it mounts: auth/, rest/, functions/, mail/.
 * The gateway parses the HTTP request, checks the apikey, verifies the bearer JWT, and hands each API an
 * `ApiRequest`; the API answers with an `ApiResponse`. No API touches Node's http objects.
 */
import type { Db } from './db/database'
import type { ApiRole, JwtClaims, SigningKey } from './keys'

export type ApiRequest = {
  method: string
  /** Path below the API's prefix, e.g. `/token` for `/auth/v1/token`, `/campaigns` for `/rest/v1/campaigns`. */
  path: string
  query: URLSearchParams
  /** Lower-cased header names. */
  headers: Record<string, string>
  body: Buffer
  /**
   * The client IP (client-ip.ts): the socket address, or the trusted proxy's header when CLIENT_IP_HEADER
   * names one. `headers['x-forwarded-for']` and `headers['x-real-ip']` carry the same value.
   */
  ip: string
  /** From the verified bearer token, or from the apikey when no bearer token was sent. */
  role: ApiRole
  claims: JwtClaims
  /** The raw bearer token, when one was sent and verified. */
  token?: string
}

export type ApiResponse = {
  status: number
  headers?: Record<string, string>
  /** Objects are sent as JSON; strings and buffers as they are. */
  body?: unknown
}

export type Handler = (req: ApiRequest) => Promise<ApiResponse>

export type Mailer = {
  send(message: { to: string; subject: string; html: string; text: string; from?: string }): Promise<void>
}

export type BackendContext = {
  db: Db
  /** Parsed supabase/config.toml. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TOML has no schema; each API reads its own section
  config: Record<string, any>
  /** e.g. http://127.0.0.1:54321 */
  apiUrl: string
  /** Legacy JWT API keys (HS256, the JWT secret). */
  anonKey: string
  serviceRoleKey: string
  /** The current opaque API keys: `sb_publishable_…` (anon) and `sb_secret_…` (service_role). */
  publishableKey: string
  secretKey: string
  smtp: { host: string; port: number }
  mailer: Mailer
  /**
   * What user access tokens are signed with (ES256/RS256): `[auth] signing_keys_path`, else the local key.
   * Unset only in tests that run one API alone; tokens are then HS256.
   */
  signingKey?: SigningKey
}
