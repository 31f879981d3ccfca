/**
 * POST /admin/generate_link (the link and OTP of any auth email, without sending it — for tests and
 * custom mailers) and POST /invite (create an invited user and email them).
 */
import type { Db } from '../../db/database'
import { hashPassword } from '../crypto'
import { issueToken, verifyLink } from '../email-tokens'
import { errors, httpError, json } from '../errors'
import type { Route } from '../env'
import { sendInvite } from '../mailers'
import { obj, readBody, str, type Body } from '../request'
import { safeRedirect } from '../settings'
import {
  findUserByEmail,
  findUserById,
  insertUser,
  normalizeEmail,
  userJson,
  type TokenColumn,
  type UserRow,
  validateEmail,
} from '../users'

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'] as const
type LinkType = (typeof LINK_TYPES)[number]

async function createOrReuse(db: Db, body: Body, email: string, invited: boolean): Promise<UserRow> {
  const existing = await findUserByEmail(db, email)
  if (existing?.email_confirmed_at) throw errors.emailExists()
  if (existing) return existing
  const password = str(body, 'password')
  const passwordHash = password && !invited ? await hashPassword(password) : null
  try {
    return await db.transaction((tx) =>
      insertUser(tx, { email, passwordHash, userMetadata: obj(body, 'data') ?? {}, confirmed: false, invited }),
    )
  } catch (error) {
    console.error('[auth] could not create the user:', error)
    throw httpError(500, 'unexpected_failure', 'Database error saving new user')
  }
}

export const generateLink: Route = async (env, req) => {
  const body = readBody(req)
  const type = str(body, 'type') as LinkType | undefined
  if (!type || !LINK_TYPES.includes(type))
    throw httpError(400, 'validation_failed', 'Invalid email action link type requested')
  const email = validateEmail(str(body, 'email')?.trim())
  const db = env.ctx.db
  const redirectTo = safeRedirect(env.settings, str(body, 'redirect_to') ?? req.query.get('redirect_to'))

  let user: UserRow
  let column: TokenColumn
  let verificationType: string
  let sentTo = email
  switch (type) {
    case 'signup':
    case 'invite':
      user = await createOrReuse(db, body, email, type === 'invite')
      ;[column, verificationType] = ['confirmation_token', type]
      break
    case 'magiclink':
    case 'recovery': {
      const found = await findUserByEmail(db, email)
      if (!found) throw httpError(404, 'user_not_found', 'User with this email not found')
      user = found
      ;[column, verificationType] = ['recovery_token', type]
      break
    }
    default: {
      const found = await findUserByEmail(db, email)
      if (!found) throw httpError(404, 'user_not_found', 'User with this email not found')
      const newEmail = str(body, 'new_email')?.trim()
      if (!newEmail) throw httpError(400, 'validation_failed', 'The new_email address is required')
      validateEmail(newEmail)
      if (await findUserByEmail(db, newEmail)) throw errors.emailExists()
      // One generated link completes the change: the admin vouches for the other side.
      await db.query('update auth.users set email_change = $2, email_change_confirm_status = 1 where id = $1', [
        found.id,
        normalizeEmail(newEmail),
      ])
      user = (await findUserById(db, found.id))!
      column = type === 'email_change_new' ? 'email_change_token_new' : 'email_change_token_current'
      verificationType = 'email_change'
      if (type === 'email_change_new') sentTo = newEmail
    }
  }
  const { otp, hash } = await issueToken(db, env.settings, user, column, sentTo)
  const fresh = (await findUserById(db, user.id))!
  return json({
    ...(await userJson(db, fresh)),
    action_link: verifyLink(env.ctx.apiUrl, hash, verificationType, redirectTo),
    email_otp: otp,
    hashed_token: hash,
    redirect_to: redirectTo,
    verification_type: verificationType,
  })
}

export const invite: Route = async (env, req) => {
  const body = readBody(req)
  const email = validateEmail(str(body, 'email')?.trim())
  const user = await createOrReuse(env.ctx.db, body, email, true)
  await sendInvite(env, req, user, safeRedirect(env.settings, req.query.get('redirect_to') ?? str(body, 'redirect_to')))
  return json(await userJson(env.ctx.db, (await findUserById(env.ctx.db, user.id))!))
}
