/**
 * What POST /signup answers, with email confirmations on, for an address that already has an account: the user a
 * new sign-up gets (no session), built only from the request, so nothing in it tells the address was taken.
 *
 * GoTrue answers a confirmed address with its "obfuscated user": a random id, no email sent, but `identities: []`
 * (and no `factors`) where a new user has one identity — the tell its own docs point to. Here the answer has the
 * one email identity a new user has, `factors: []`, timestamps of now, and the metadata sent in this request
 * (an unconfirmed account's stored metadata, the first registrant's name, is never echoed to whoever signs up
 * next), ordered as Postgres's jsonb orders a stored user's. auth-enumeration.test.ts compares it with a real new
 * user's answer field by field.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../db/database'
import { normalizeEmail, userJsonOf, type UserRow } from './users'

/** The answer for `email` as a new sign-up, under `id` (random for a confirmed account, the row's for a pending one). */
export async function signupAnswerAsNew(
  db: Queryable,
  id: string,
  email: string,
  userMetadata: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const address = normalizeEmail(email)
  // One round trip, as the stored user's answer costs: now() and the metadata in jsonb's key order.
  const r = await db.query<{ now: Date; meta: Record<string, unknown>; identity: Record<string, unknown> }>(
    `select now() as now, $1::jsonb as meta,
       jsonb_build_object('sub', $2::text, 'email', $3::text, 'email_verified', false, 'phone_verified', false) as identity`,
    [JSON.stringify(userMetadata), id, address],
  )
  const { now, meta, identity } = r.rows[0]!
  // A row as insertUser leaves it once the confirmation email is out: every other column empty.
  const user: UserRow = {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email: address,
    encrypted_password: null,
    email_confirmed_at: null,
    invited_at: null,
    confirmation_token: null,
    confirmation_sent_at: now,
    recovery_token: null,
    recovery_sent_at: null,
    email_change_token_new: null,
    email_change_token_current: null,
    email_change: null,
    email_change_sent_at: null,
    email_change_confirm_status: null,
    reauthentication_token: null,
    reauthentication_sent_at: null,
    last_sign_in_at: null,
    raw_app_meta_data: { provider: 'email', providers: ['email'] },
    raw_user_meta_data: meta,
    created_at: now,
    updated_at: now,
    phone: null,
    phone_confirmed_at: null,
    confirmed_at: null,
    banned_until: null,
    is_anonymous: false,
    deleted_at: null,
  }
  const identityRow = {
    id: randomUUID(),
    provider_id: id,
    user_id: id,
    identity_data: identity,
    provider: 'email',
    // As the stored row: insertUser stamps a new identity's last_sign_in_at, as GoTrue's NewIdentity does.
    last_sign_in_at: now,
    created_at: now,
    updated_at: now,
    email: address,
  }
  return userJsonOf(user, [identityRow], [])
}
