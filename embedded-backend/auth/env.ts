/** What every auth route receives: the backend context, the settings of this request, the rate limiter. */
import type { ApiRequest, ApiResponse, BackendContext } from '../context'
import type { RateLimiter } from './rate-limit'
import type { AuthSettings } from './settings'

export type AuthEnv = { ctx: BackendContext; settings: AuthSettings; limiter: RateLimiter }

export type Route = (env: AuthEnv, req: ApiRequest) => Promise<ApiResponse>

export const issuerOf = (env: AuthEnv) => ({ db: env.ctx.db, settings: env.settings, apiUrl: env.ctx.apiUrl })
