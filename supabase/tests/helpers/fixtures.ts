/**
 * Stable demo data from supabase/seed.sql and helpers to add more: actors, users created the way
 * GoTrue creates them (a row in auth.users; the profile trigger does the rest), and an attempt runner
 * that always rolls back so table-driven cases never change what the next case sees.
 */
import { randomUUID } from 'node:crypto'
import { LEDGER_MISMATCHES_SQL } from '../../../bench/money-invariants'
import { as, testDb, user, type Actor } from './db'

export const ids = {
  admin: '00000000-0000-4000-a000-000000000001',
  advertiser: '00000000-0000-4000-a000-000000000002',
  publisher: '00000000-0000-4000-a000-000000000003',
  otherAdvertiser: '00000000-0000-4000-a000-000000000004',
  otherPublisher: '00000000-0000-4000-a000-000000000009',
  sourceApproved: '10000000-0000-4000-a000-000000000001',
  sourceVerified: '10000000-0000-4000-a000-000000000002',
  sourceLive: '10000000-0000-4000-a000-000000000003',
  sourcePending: '10000000-0000-4000-a000-000000000004',
  sourceBanned: '10000000-0000-4000-a000-000000000008',
  campaignActive: '20000000-0000-4000-a000-000000000001',
  campaignPaused: '20000000-0000-4000-a000-000000000004',
  campaignPendingReview: '20000000-0000-4000-a000-000000000005',
  payoutRequested: '30000000-0000-4000-a000-000000000002',
} as const

export const actors = {
  // Admins act in a session raised by their TOTP code (aal2); the database refuses them anything admin at aal1.
  admin: user(ids.admin, 'admin@growletter.test', 'aal2'),
  advertiser: user(ids.advertiser, 'advertiser@growletter.test'),
  otherAdvertiser: user(ids.otherAdvertiser, 'maya@growletter.test'),
  publisher: user(ids.publisher, 'publisher@growletter.test'),
  otherPublisher: user(ids.otherPublisher, 'jordan@growletter.test'),
} as const

export type NewUser = { id: string; email: string; actor: Actor }

/** A new confirmed user of the given type, as the signup trigger would create them. */
export async function createUser(type: 'advertiser' | 'publisher' | 'admin' | string = 'advertiser'): Promise<NewUser> {
  const db = await testDb()
  const id = randomUUID()
  const email = `${type}-${id.slice(0, 8)}@test.growletter.test`
  await db.query(
    `insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, now(), jsonb_build_object('user_type', $3::text, 'full_name', 'Test ' || $3::text))`,
    [id, email, type],
  )
  if (type === 'admin') await db.query(`update public.profiles set user_type = 'admin' where id = $1`, [id])
  return { id, email, actor: user(id, email, type === 'admin' ? 'aal2' : 'aal1') }
}

class Rollback extends Error {}

export type Attempt = { ok: boolean; affected: number; rows: Record<string, unknown>[]; error?: string }

/** Runs one statement as the actor inside a transaction that is always rolled back. */
export async function attempt(actor: Actor, sql: string, params: unknown[] = []): Promise<Attempt> {
  let outcome: Attempt = { ok: false, affected: 0, rows: [] }
  try {
    await as(actor, async (tx) => {
      const r = await tx.query(sql, params)
      outcome = { ok: true, affected: r.affectedRows, rows: r.rows }
      throw new Rollback()
    })
  } catch (error) {
    if (!(error instanceof Rollback)) outcome = { ok: false, affected: 0, rows: [], error: (error as Error).message }
  }
  return outcome
}

/** Balance = sum of completed ledger rows, for every wallet. Returns the wallets where it does not hold. */
export async function ledgerMismatches() {
  const db = await testDb()
  // balance = the completed rows; on_hold (kept by the ledger's trigger) = minus the pending holds.
  const r = await db.query<{ user_id: string; balance: string; ledger: string; on_hold?: string; held?: string }>(
    LEDGER_MISMATCHES_SQL,
  )
  return r.rows
}

/**
 * Gives a publisher a Stripe account in the state Stripe's events would leave it (as create-connect-onboarding and
 * connect-webhook record it, through the service role's functions). Returns the account id.
 */
export async function payoutAccount(
  publisherId: string,
  state: 'ready' | 'not_set_up' | 'pending_verification' | 'action_needed' = 'ready',
): Promise<string> {
  const db = await testDb()
  const account = `acct_${publisherId.replace(/-/g, '').slice(0, 16)}`
  await db.query('select public.link_payout_account($1, $2)', [publisherId, account])
  const [submitted, enabled, due, disabled] = {
    ready: [true, true, [], null],
    not_set_up: [false, false, ['external_account'], 'requirements.past_due'],
    pending_verification: [true, false, [], 'requirements.pending_verification'],
    action_needed: [true, false, ['individual.id_number'], 'requirements.past_due'],
  }[state]
  await db.query('select public.update_payout_account($1, $2, $3, $4, $5, clock_timestamp())', [
    account,
    submitted,
    enabled,
    due,
    disabled,
  ])
  return account
}
