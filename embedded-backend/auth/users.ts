/**
 * auth.users rows and their JSON form as GoTrue returns it (identities and factors included).
 * All SQL runs as the database owner so triggers on auth.users fire exactly as on hosted Supabase.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../db/database'
import { httpError } from './errors'

export type UserRow = {
  id: string
  aud: string | null
  role: string | null
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: Date | null
  invited_at: Date | null
  confirmation_token: string | null
  confirmation_sent_at: Date | null
  recovery_token: string | null
  recovery_sent_at: Date | null
  email_change_token_new: string | null
  email_change_token_current: string | null
  email_change: string | null
  email_change_sent_at: Date | null
  email_change_confirm_status: number | null
  reauthentication_token: string | null
  reauthentication_sent_at: Date | null
  last_sign_in_at: Date | null
  raw_app_meta_data: Record<string, unknown> | null
  raw_user_meta_data: Record<string, unknown> | null
  created_at: Date
  updated_at: Date
  phone: string | null
  phone_confirmed_at: Date | null
  /** The number a pending phone change goes to (routes/phone.ts). */
  phone_change?: string | null
  confirmed_at: Date | null
  banned_until: Date | null
  is_anonymous: boolean
  deleted_at: Date | null
}

export type IdentityRow = {
  id: string
  provider_id: string
  user_id: string
  identity_data: Record<string, unknown>
  provider: string
  last_sign_in_at: Date | null
  created_at: Date
  updated_at: Date
  email: string | null
}

export type FactorRow = {
  id: string
  friendly_name: string | null
  factor_type: string
  status: string
  created_at: Date
  updated_at: Date
  last_challenged_at: Date | null
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase()
/*
 * GoTrue checks an address's format with badoux/checkmail's pattern: a local part of the characters RFC 5322
 * allows unquoted, and a domain of labels (letters, digits, inner hyphens, at most 63 each). The old check
 * here (`x@y.z` with anything but spaces) let `xx:;x@x.x` sign up and get a session at an address no email
 * can reach. GoTrue requires no dot in the domain (`a@localhost` passes there), and so does this check.
 */
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?'
const EMAIL_RE = new RegExp(`^[a-zA-Z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*$`)
export const isValidEmail = (email: string) => email.length <= 255 && EMAIL_RE.test(email)

/**
 * GoTrue's validateEmail: the address lower-cased, or its 400 `validation_failed` with GoTrue's words
 * ("Unable to validate email address: invalid format"), which supabase-js's own tests match.
 */
export function validateEmail(email: string | undefined): string {
  if (!email) throw httpError(400, 'validation_failed', 'An email address is required')
  if (email.length > 255) throw httpError(400, 'validation_failed', 'An email address is too long')
  if (!EMAIL_RE.test(email))
    throw httpError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  return email.toLowerCase()
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>('select * from auth.users where lower(email) = $1 and is_sso_user = false', [
    normalizeEmail(email),
  ])
  return r.rows[0]
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
  const r = await db.query<UserRow>('select * from auth.users where id = $1', [id])
  return r.rows[0]
}

/** Finds the user whose stored token hash in `column` matches; column names are from a fixed list. */
export async function findUserByToken(db: Queryable, column: TokenColumn, hash: string): Promise<UserRow | undefined> {
  if (!hash) return undefined
  const r = await db.query<UserRow>(`select * from auth.users where ${column} = $1 and ${column} <> ''`, [hash])
  return r.rows[0]
}

export type TokenColumn =
  | 'confirmation_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'reauthentication_token'

export type NewUser = {
  email: string
  passwordHash: string | null
  userMetadata?: Record<string, unknown>
  appMetadata?: Record<string, unknown>
  confirmed: boolean
  invited?: boolean
}

/**
 * auth.users' token columns GoTrue reads into Go strings: a row with NULL in any of them breaks GoTrue's every read
 * of that user, and GoTrue's table gives four of them no default. Every insert here writes them as ''.
 */
const BLANK_TOKENS = [
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
  'email_change',
  'phone_change',
  'phone_change_token',
  'reauthentication_token',
]
/** `insert into auth.users (…, ${BLANK_TOKEN_COLUMNS}) values (…, ${BLANK_TOKEN_VALUES})` */
export const BLANK_TOKEN_COLUMNS = BLANK_TOKENS.join(', ')
export const BLANK_TOKEN_VALUES = BLANK_TOKENS.map(() => "''").join(', ')

/** Inserts the user and its email identity in the caller's transaction, every column GoTrue fills filled. */
export async function insertUser(tx: Queryable, input: NewUser): Promise<UserRow> {
  const id = randomUUID()
  const email = normalizeEmail(input.email)
  const app = { provider: 'email', providers: ['email'], ...input.appMetadata }
  const r = await tx.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous, ${BLANK_TOKEN_COLUMNS})
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
       case when $4 then now() end, case when $5 then now() end, $6, $7, now(), now(), false, false, ${BLANK_TOKEN_VALUES})
     returning *`,
    [
      id,
      email,
      input.passwordHash ?? '',
      input.confirmed,
      input.invited === true,
      JSON.stringify(app),
      JSON.stringify(input.userMetadata ?? {}),
    ],
  )
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, 'email', now(), now(), now())`,
    [id, id, JSON.stringify({ sub: id, email, email_verified: input.confirmed, phone_verified: false })],
  )
  return r.rows[0]!
}

/** app_metadata as GoTrue keeps it: an anonymous user's is empty; others default to the email provider. */
export const appMetadataOf = (user: UserRow): Record<string, unknown> =>
  user.is_anonymous
    ? { ...(user.raw_app_meta_data ?? {}) }
    : { provider: 'email', providers: ['email'], ...(user.raw_app_meta_data ?? {}) }

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined)

/** The user object supabase-js expects; null timestamps are left out as GoTrue's `omitempty` does. */
export async function userJson(db: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const [identities, factors] = await Promise.all([
    db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at', [user.id]),
    db.query<FactorRow>('select * from auth.mfa_factors where user_id = $1 order by created_at', [user.id]),
  ])
  return userJsonOf(user, identities.rows, factors.rows)
}

/** userJson for rows already in hand (signup-answer.ts builds them without reading the database). */
export function userJsonOf(user: UserRow, identities: IdentityRow[], factors: FactorRow[]): Record<string, unknown> {
  const app = appMetadataOf(user)
  const out: Record<string, unknown> = {
    id: user.id,
    aud: user.aud || 'authenticated',
    role: user.role || 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at ?? user.email_confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    email_change_sent_at: iso(user.email_change_sent_at),
    new_email: user.email_change || undefined,
    new_phone: user.phone_change || undefined,
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: app,
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    factors: factors.map((f) => ({
      id: f.id,
      friendly_name: f.friendly_name || undefined,
      factor_type: f.factor_type,
      status: f.status,
      created_at: iso(f.created_at),
      updated_at: iso(f.updated_at),
      last_challenged_at: iso(f.last_challenged_at),
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous === true,
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out
}

/** Merges metadata the way GoTrue does: top-level keys replace, `null` removes. */
export function mergeMetadata(current: Record<string, unknown> | null, patch: Record<string, unknown>) {
  const next: Record<string, unknown> = { ...(current ?? {}) }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key]
    else next[key] = value
  }
  return next
}

export const isBanned = (user: UserRow) => user.banned_until !== null && new Date(user.banned_until) > new Date()
