/**
 * GET/PUT /user for the signed-in user. Metadata merges; a password change checks strength and the
 * reauthentication nonce when one is sent, and ends the user's other sessions; an email change
 * waits for the confirmation link(s), as GoTrue's secure email change does. Both need an aal2 session
 * when the user has a verified factor.
 */
import type { Queryable } from '../../db/database'
import { checkPassword, hashPassword } from '../crypto'
import { errors, httpError, json } from '../errors'
import type { Route } from '../env'
import { sendEmailChange } from '../mailers'
import { assertStrongPassword } from '../password-policy'
import { obj, readBody, requireUser, str } from '../request'
import { endSessions } from '../sessions'
import { safeRedirect } from '../settings'
import { findUserByEmail, findUserById, mergeMetadata, normalizeEmail, userJson, validateEmail } from '../users'
import { checkReauthenticationNonce } from '../verification'
import { requestPhoneChange } from './phone'

export const getUser: Route = async (env, req) => {
  const { user } = await requireUser(env.ctx.db, req)
  return json(await userJson(env.ctx.db, user))
}

export const updateUser: Route = async (env, req) => {
  const db = env.ctx.db
  const { user, session } = await requireUser(db, req)
  const body = readBody(req)
  const data = obj(body, 'data')
  const password = str(body, 'password')
  const email = str(body, 'email')?.trim()
  const changesEmail = email !== undefined && normalizeEmail(email) !== (user.email ?? '').toLowerCase()

  // With a verified factor, a password alone (an aal1 session) must not be enough to take the account
  // over: GoTrue's rule, status, code and message.
  if ((password || changesEmail) && session.aal !== 'aal2' && (await hasVerifiedFactor(db, user.id))) {
    throw httpError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    )
  }

  if (password !== undefined) {
    assertStrongPassword(env.settings, password)
    if (await checkPassword(password, user.encrypted_password)) {
      throw httpError(422, 'same_password', 'New password should be different from the old password.')
    }
    const nonce = str(body, 'nonce')
    if (nonce !== undefined && !(await checkReauthenticationNonce(db, env.settings, user.id, nonce))) {
      throw httpError(422, 'reauthentication_not_valid', 'Requires reauthentication')
    }
  }
  if (changesEmail) {
    validateEmail(email)
    const taken = await findUserByEmail(db, email)
    if (taken && taken.id !== user.id) throw errors.emailExists()
  }

  if (data) {
    await db.query('update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1', [
      user.id,
      JSON.stringify(mergeMetadata(user.raw_user_meta_data, data)),
    ])
  }
  if (password !== undefined) {
    await db.query(
      "update auth.users set encrypted_password = $2, reauthentication_token = '', recovery_token = '', updated_at = now() where id = $1",
      [user.id, await hashPassword(password)],
    )
    await endSessions(db, user.id, session.id, 'others')
  }
  if (changesEmail) {
    const next = normalizeEmail(email!)
    if (!env.settings.confirmEmail) {
      await db.query('update auth.users set email = $2, updated_at = now() where id = $1', [user.id, next])
    } else {
      await db.query('update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1', [
        user.id,
        next,
      ])
      const redirectTo = safeRedirect(env.settings, req.query.get('redirect_to'))
      await sendEmailChange(env, req, (await findUserById(db, user.id))!, next, redirectTo)
    }
  }
  const phone = str(body, 'phone')
  if (phone !== undefined && phone !== '') await requestPhoneChange(env, (await findUserById(db, user.id))!, phone)
  return json(await userJson(db, (await findUserById(db, user.id))!))
}

async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const r = await db.query("select 1 from auth.mfa_factors where user_id = $1 and status = 'verified' limit 1", [
    userId,
  ])
  return r.rows.length > 0
}
