/**
 * reconcile-payouts: an admin compares the payouts Growletter recorded with Stripe's own list of transfers. POST `{}`
 * with the admin's session → `{ checked_at, accounts, payouts_checked, transfers_seen, differences }` (the shapes and
 * the comparison are _shared/rules/payout-reconciliation.ts; the admin's payouts page shows them).
 *
 * Who may: the database decides. The function calls admin_payout_reconciliation_scope with the caller's own token,
 * which refuses anyone but an admin in a live aal2 session (the message becomes a 403) and answers with the
 * publishers' connected accounts and every payout that may have a transfer. Then, for each account, it pages through
 * GET /v1/transfers?destination=acct_…&limit=100 (the stripe package's auto-pagination: `starting_after` the last
 * transfer of the page) and compares. It changes nothing: a difference is for an admin to look into.
 * 401 signed out, 403 not an admin at aal2, 502 when Stripe cannot be asked.
 */
import { createClient } from 'npm:@supabase/supabase-js@2.109'
import { preflight } from '../_shared/cors.ts'
import { requireEnv } from '../_shared/env.ts'
import { errorResponse, HttpError, json, requirePost } from '../_shared/http.ts'
import {
  reconcilePayouts,
  type ListedTransfer,
  type RecordedAccount,
  type RecordedPayout,
  type Reconciliation,
} from '../_shared/rules/payout-reconciliation.ts'
import { requireStripe, Stripe, stripeClient } from '../_shared/stripe.ts'

/** Accounts whose transfers are listed at the same time: a few at once, well within Stripe's rate limits. */
const CONCURRENT_ACCOUNTS = 4

type Scope = { accounts: RecordedAccount[]; payouts: RecordedPayout[] }

/** The caller's own client: the database sees their token, so auth.uid(), the aal and the session are theirs. */
function callerClient(authorization: string) {
  return createClient(requireEnv('SUPABASE_URL'), requireEnv('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

async function scopeFor(authorization: string): Promise<Scope> {
  const { data, error } = await callerClient(authorization).rpc('admin_payout_reconciliation_scope')
  if (error) {
    // The database's own sentence (not an admin, not at aal2, session ended); a bare grant refusal says who may.
    if (error.code === '42501') {
      throw new HttpError(403, /permission denied/i.test(error.message) ? 'Only an admin can do this' : error.message)
    }
    throw new Error(`admin_payout_reconciliation_scope failed: ${error.message}`)
  }
  return data as Scope
}

async function transfersTo(account: string): Promise<ListedTransfer[]> {
  const listed: ListedTransfer[] = []
  for await (const t of stripeClient().transfers.list({ destination: account, limit: 100 })) {
    listed.push({
      id: t.id,
      amount: t.amount,
      amount_reversed: t.amount_reversed,
      reversed: t.reversed,
      destination: typeof t.destination === 'string' ? t.destination : (t.destination?.id ?? account),
      created: t.created,
      metadata: t.metadata ?? {},
    })
  }
  return listed
}

async function listAll(accounts: string[]): Promise<ListedTransfer[]> {
  const queue = [...accounts]
  const all: ListedTransfer[] = []
  const worker = async () => {
    for (let account = queue.shift(); account !== undefined; account = queue.shift()) {
      all.push(...(await transfersTo(account)))
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_ACCOUNTS, accounts.length) }, worker))
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error
    console.error('reconcile-payouts: Stripe refused or failed:', error.message)
    throw new HttpError(502, 'Stripe could not be asked for its transfers. Try again in a minute.')
  }
  return all
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  const authorization = req.headers.get('authorization') ?? ''
  if (!/^bearer\s+\S+/i.test(authorization)) throw new HttpError(401, 'Sign in to reconcile payouts.')
  const scope = await scopeFor(authorization)
  requireStripe()
  const accounts = [...new Set(scope.accounts.map((a) => a.account))]
  const transfers = await listAll(accounts)
  const { payouts_checked, differences } = reconcilePayouts(scope.payouts, transfers, scope.accounts)
  const result: Reconciliation = {
    checked_at: new Date().toISOString(),
    accounts: accounts.length,
    payouts_checked,
    transfers_seen: transfers.length,
    differences,
  }
  return json(result)
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await handle(req))
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
