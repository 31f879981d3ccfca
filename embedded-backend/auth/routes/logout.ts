/** POST /logout?scope=global|local|others: ends sessions; their access tokens stop working at once. */
import { httpError, noContent } from '../errors'
import type { Route } from '../env'
import { requireUser } from '../request'
import { endSessions } from '../sessions'

export const logout: Route = async (env, req) => {
  const scope = req.query.get('scope') ?? 'global'
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw httpError(400, 'validation_failed', `Unsupported logout scope "${scope}"`)
  }
  const { user, session } = await requireUser(env.ctx.db, req)
  await endSessions(env.ctx.db, user.id, session.id, scope)
  return noContent()
}
