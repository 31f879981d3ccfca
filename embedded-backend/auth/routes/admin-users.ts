/**
 * The admin users API (service role only): list, create, read, update, delete, and a user's factors.
 * Admin-created users skip the confirmation email; `email_confirm: true` marks them confirmed.
 */
import type { ApiRequest } from '../../context'
import { hashPassword } from '../crypto'
import { errors, httpError, json } from '../errors'
import type { AuthEnv, Route } from '../env'
import { assertStrongPassword } from '../password-policy'
import { obj, readBody, str } from '../request'
import { durationSeconds } from '../settings'
import { addPhone, findUserByPhone, insertPhoneUser, validatePhone } from './phone'
import {
  findUserByEmail,
  findUserById,
  insertUser,
  mergeMetadata,
  normalizeEmail,
  userJson,
  type UserRow,
  validateEmail,
} from '../users'

const idFrom = (req: ApiRequest) => decodeURIComponent(req.path.split('/')[3] ?? '')

async function userOr404(env: AuthEnv, req: ApiRequest): Promise<UserRow> {
  const user = await findUserById(env.ctx.db, idFrom(req))
  if (!user) throw errors.userNotFound()
  return user
}

/**
 * A pagination parameter as GoTrue reads it (Go's strconv.ParseUint): digits only, else 400 with Go's own
 * wording, so `listUsers({ page: -1 })` is an error as on hosted Supabase rather than page 1.
 */
function pageParam(req: ApiRequest, name: string, fallback: number): number {
  const raw = req.query.get(name)
  if (raw === null || raw === '') return fallback
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw httpError(
      400,
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: ${/^\d+$/.test(raw) ? 'value out of range' : 'invalid syntax'}`,
    )
  }
  return Number(raw)
}

export const listUsers: Route = async (env, req) => {
  const page = pageParam(req, 'page', 1)
  // GoTrue takes any unsigned per_page; 0 would divide by zero below, so it is read as GoTrue's default.
  const perPage = Math.min(1000, pageParam(req, 'per_page', 50) || 50)
  const pageOrFirst = Math.max(1, page)
  const db = env.ctx.db
  const total = (await db.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0]?.n ?? 0
  const rows = (
    await db.query<UserRow>('select * from auth.users order by created_at desc, id limit $1 offset $2', [
      perPage,
      (pageOrFirst - 1) * perPage,
    ])
  ).rows
  const users = []
  for (const row of rows) users.push(await userJson(db, row))
  const last = Math.max(1, Math.ceil(total / perPage))
  const links = [`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`]
  if (pageOrFirst < last) links.unshift(`</admin/users?page=${pageOrFirst + 1}&per_page=${perPage}>; rel="next"`)
  return json({ users, aud: 'authenticated' }, 200, { 'X-Total-Count': String(total), Link: links.join(', ') })
}

export const createUser: Route = async (env, req) => {
  const body = readBody(req)
  const rawEmail = str(body, 'email')?.trim()
  const rawPhone = str(body, 'phone')?.trim()
  // GoTrue's order: one address at least, each valid and free, then the password.
  if (!rawEmail && !rawPhone)
    throw httpError(400, 'validation_failed', 'Cannot create a user without either an email or phone')
  const email = rawEmail ? validateEmail(rawEmail) : undefined
  const phone = rawPhone ? validatePhone(rawPhone) : undefined
  const db = env.ctx.db
  if (email && (await findUserByEmail(db, email))) throw errors.emailExists()
  if (phone && (await findUserByPhone(env, phone)))
    throw httpError(422, 'phone_exists', 'Phone number already registered by another user')
  const password = str(body, 'password')
  if (password !== undefined) assertStrongPassword(env.settings, password)
  const passwordHash = password ? await hashPassword(password) : null
  const userMetadata = obj(body, 'user_metadata') ?? obj(body, 'data') ?? {}
  const phoneConfirmed = body.phone_confirm === true
  const user = await (
    email
      ? db.transaction(async (tx) => {
          const created = await insertUser(tx, {
            email,
            passwordHash,
            userMetadata,
            appMetadata: obj(body, 'app_metadata'),
            confirmed: body.email_confirm === true,
          })
          if (phone) await addPhone(tx, created, phone, phoneConfirmed)
          return created
        })
      : insertPhoneUser(db, phone!, passwordHash ?? '', userMetadata, phoneConfirmed, obj(body, 'app_metadata'))
  ).catch((error: unknown) => {
    console.error('[auth] admin create user failed:', error)
    throw httpError(500, 'unexpected_failure', 'Database error creating new user')
  })
  await applyBan(env, user.id, body.ban_duration)
  return json(await userJson(db, (await findUserById(db, user.id))!))
}

export const getUserById: Route = async (env, req) => json(await userJson(env.ctx.db, await userOr404(env, req)))

export const updateUserById: Route = async (env, req) => {
  const user = await userOr404(env, req)
  const body = readBody(req)
  const db = env.ctx.db
  const email = str(body, 'email')?.trim()
  if (email !== undefined && normalizeEmail(email) !== user.email) {
    validateEmail(email)
    const taken = await findUserByEmail(db, email)
    if (taken && taken.id !== user.id) throw errors.emailExists()
    await db.query('update auth.users set email = $2 where id = $1', [user.id, normalizeEmail(email)])
    await db.query(
      "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'",
      [user.id, normalizeEmail(email)],
    )
  }
  const password = str(body, 'password')
  if (password !== undefined) {
    assertStrongPassword(env.settings, password)
    await db.query('update auth.users set encrypted_password = $2 where id = $1', [
      user.id,
      await hashPassword(password),
    ])
  }
  if (body.email_confirm === true)
    await db.query('update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1', [
      user.id,
    ])
  const userMeta = obj(body, 'user_metadata')
  if (userMeta)
    await db.query('update auth.users set raw_user_meta_data = $2 where id = $1', [
      user.id,
      JSON.stringify(mergeMetadata(user.raw_user_meta_data, userMeta)),
    ])
  const appMeta = obj(body, 'app_metadata')
  if (appMeta)
    await db.query('update auth.users set raw_app_meta_data = $2 where id = $1', [
      user.id,
      JSON.stringify(mergeMetadata(user.raw_app_meta_data, appMeta)),
    ])
  await applyBan(env, user.id, body.ban_duration)
  await db.query('update auth.users set updated_at = now() where id = $1', [user.id])
  return json(await userJson(db, (await findUserById(db, user.id))!))
}

/** `ban_duration`: "none" lifts a ban; "24h", "30m"… bans for that long and ends the user's sessions. */
async function applyBan(env: AuthEnv, userId: string, value: unknown) {
  if (typeof value !== 'string') return
  if (value === 'none') {
    await env.ctx.db.query('update auth.users set banned_until = null where id = $1', [userId])
    return
  }
  const seconds = durationSeconds(value, Number.NaN)
  if (!Number.isFinite(seconds)) throw httpError(400, 'validation_failed', 'invalid format for ban duration')
  await env.ctx.db.query('update auth.users set banned_until = now() + make_interval(secs => $2) where id = $1', [
    userId,
    seconds,
  ])
  await env.ctx.db.query('delete from auth.sessions where user_id = $1', [userId])
}

export const deleteUserById: Route = async (env, req) => {
  const user = await userOr404(env, req)
  await env.ctx.db.query('delete from auth.users where id = $1', [user.id]).catch((error: unknown) => {
    console.error('[auth] admin delete user failed:', error)
    throw httpError(500, 'unexpected_failure', 'Database error deleting user')
  })
  return json({})
}

export const listUserFactors: Route = async (env, req) => {
  const user = await userOr404(env, req)
  const out = await userJson(env.ctx.db, user)
  return json(out.factors)
}

export const deleteUserFactor: Route = async (env, req) => {
  const user = await userOr404(env, req)
  const factorId = req.path.split('/')[5] ?? ''
  const r = await env.ctx.db.query<{ id: string }>(
    'delete from auth.mfa_factors where user_id = $1 and id::text = $2 returning id',
    [user.id, factorId],
  )
  if (!r.rows[0]) throw httpError(404, 'mfa_factor_not_found', 'Factor not found')
  return json({ id: r.rows[0].id })
}
