/**
 * The GoTrue-compatible auth API of the embedded backend, mounted by the gateway at /auth/v1.
 * Every answer carries `X-Supabase-Api-Version: 2024-01-01`; every client mistake is a 4xx in GoTrue's
 * `{code, error_code, msg}` shape; only real faults are 500s, and they never leak internals.
 */
import type { ApiRequest, ApiResponse, BackendContext, Handler } from '../context'
import { AuthHttpError, errorResponse, httpError } from './errors'
import type { AuthEnv, Route } from './env'
import { RateLimiter } from './rate-limit'
import { requireServiceRole } from './request'
import { generateLink, invite } from './routes/admin-links'
import {
  createUser,
  deleteUserById,
  deleteUserFactor,
  getUserById,
  listUserFactors,
  listUsers,
  updateUserById,
} from './routes/admin-users'
import { authorize, identities, oauthGrants, oauthServer, passkeys, sso } from './routes/disabled'
import { health, jwks, settingsRoute } from './routes/health'
import { logout } from './routes/logout'
import { challenge, enroll, unenroll, verifyFactor } from './routes/mfa'
import { otp } from './routes/otp'
import { reauthenticate, recover, resend } from './routes/recover'
import { signup } from './routes/signup'
import { token } from './routes/token'
import { getUser, updateUser } from './routes/user'
import { verifyLinkRoute, verifyTokenRoute } from './routes/verify'
import { authSettings } from './settings'

export { ensureAuthSchema } from './schema'

type Entry = { method: string; pattern: RegExp; route: Route; admin?: boolean }

const ID = '[^/]+'
/** One route for every method: features that are off answer the same whatever is asked of them. */
const anyMethod = (pattern: RegExp, route: Route, admin = false): Entry[] =>
  ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, pattern, route, admin }))
const table: Entry[] = [
  { method: 'GET', pattern: /^\/health$/, route: health },
  { method: 'GET', pattern: /^\/settings$/, route: settingsRoute },
  { method: 'GET', pattern: /^\/\.well-known\/jwks\.json$/, route: jwks },
  { method: 'POST', pattern: /^\/signup$/, route: signup },
  { method: 'POST', pattern: /^\/token$/, route: token },
  { method: 'GET', pattern: /^\/user$/, route: getUser },
  { method: 'PUT', pattern: /^\/user$/, route: updateUser },
  { method: 'POST', pattern: /^\/logout$/, route: logout },
  { method: 'POST', pattern: /^\/recover$/, route: recover },
  { method: 'GET', pattern: /^\/verify$/, route: verifyLinkRoute },
  { method: 'POST', pattern: /^\/verify$/, route: verifyTokenRoute },
  { method: 'POST', pattern: /^\/resend$/, route: resend },
  { method: 'POST', pattern: /^\/otp$/, route: otp },
  { method: 'POST', pattern: /^\/magiclink$/, route: otp },
  { method: 'GET', pattern: /^\/reauthenticate$/, route: reauthenticate },
  { method: 'POST', pattern: /^\/factors$/, route: enroll },
  { method: 'POST', pattern: new RegExp(`^/factors/${ID}/challenge$`), route: challenge },
  { method: 'POST', pattern: new RegExp(`^/factors/${ID}/verify$`), route: verifyFactor },
  { method: 'DELETE', pattern: new RegExp(`^/factors/${ID}$`), route: unenroll },
  { method: 'POST', pattern: /^\/sso$/, route: sso },
  { method: 'GET', pattern: /^\/authorize$/, route: authorize },
  { method: 'GET', pattern: /^\/user\/identities\/authorize$/, route: identities },
  { method: 'DELETE', pattern: new RegExp(`^/user/identities/${ID}$`), route: identities },
  ...anyMethod(/^\/passkeys(\/.*)?$/, passkeys),
  ...anyMethod(/^\/oauth\/.+$/, oauthServer),
  ...anyMethod(/^\/\.well-known\/oauth-authorization-server$/, oauthServer),
  ...anyMethod(/^\/user\/oauth\/grants$/, oauthGrants),
  ...anyMethod(/^\/admin\/oauth(\/.*)?$/, oauthServer, true),
  { method: 'POST', pattern: /^\/invite$/, route: invite, admin: true },
  { method: 'GET', pattern: /^\/admin\/users$/, route: listUsers, admin: true },
  { method: 'POST', pattern: /^\/admin\/users$/, route: createUser, admin: true },
  { method: 'GET', pattern: new RegExp(`^/admin/users/${ID}$`), route: getUserById, admin: true },
  { method: 'PUT', pattern: new RegExp(`^/admin/users/${ID}$`), route: updateUserById, admin: true },
  { method: 'DELETE', pattern: new RegExp(`^/admin/users/${ID}$`), route: deleteUserById, admin: true },
  { method: 'GET', pattern: new RegExp(`^/admin/users/${ID}/factors$`), route: listUserFactors, admin: true },
  { method: 'DELETE', pattern: new RegExp(`^/admin/users/${ID}/factors/${ID}$`), route: deleteUserFactor, admin: true },
  { method: 'POST', pattern: /^\/admin\/generate_link$/, route: generateLink, admin: true },
]

export function createAuthHandler(ctx: BackendContext): Handler {
  const limiter = new RateLimiter()
  return async (req: ApiRequest): Promise<ApiResponse> => {
    const env: AuthEnv = { ctx, settings: authSettings(ctx), limiter }
    const path = req.path.replace(/\/+$/, '') || '/'
    try {
      const candidates = table.filter((e) => e.pattern.test(path))
      const entry = candidates.find((e) => e.method === req.method)
      if (!entry) {
        if (candidates.length) throw httpError(405, 'method_not_allowed', 'Method not allowed')
        throw httpError(404, 'not_found', 'Not found')
      }
      if (entry.admin) await requireServiceRole(req)
      return await entry.route(env, { ...req, path })
    } catch (error) {
      if (error instanceof AuthHttpError) return errorResponse(error)
      console.error(`[auth] ${req.method} ${req.path} failed:`, error)
      return errorResponse(
        httpError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
      )
    }
  }
}
