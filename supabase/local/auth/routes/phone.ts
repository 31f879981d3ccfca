/**
 * Phone sign-up and sign-in. The embedded backend sends no SMS, so the phone provider stays off and every
 * phone route answers as GoTrue does with `[auth.sms] enable_signup = false` (400 `phone_provider_disabled`).
 * A config.toml that turns SMS on is reported at start (config-report.ts) instead of being ignored.
 */
import type { ApiRequest, ApiResponse } from '../../context'
import { httpError } from '../errors'
import type { AuthEnv } from '../env'
import type { Body } from '../request'

export async function phoneSignup(_env: AuthEnv, _req: ApiRequest, _body: Body, _phone: string, _password: string): Promise<ApiResponse> {
  throw httpError(400, 'phone_provider_disabled', 'Phone signups are disabled')
}
