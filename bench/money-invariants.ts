/**
 * The money invariants the soak bench (`npm run bench -- soak`) checks after its run and after every kill, and
 * supabase/tests/money-invariants.test.ts checks against the seeded database. Each is one SQL query that returns the
 * rows breaking it (at most a few, to print): an empty answer is a pass. Read-only; any connection will do (the
 * backend's Db, a pg.Client, the test database).
 */

type Queryable = { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> }

export type Invariant = { name: string; sql: string }
export type InvariantResult = { name: string; ok: boolean; violations: Record<string, unknown>[] }

/** Balance = the completed ledger rows, on hold = minus the pending holds (supabase/tests/helpers/fixtures.ts). */
export const LEDGER_MISMATCHES_SQL = `
  select w.user_id, w.balance::text, coalesce(sum(t.amount) filter (where t.status = 'completed'), 0)::numeric(12, 2)::text as ledger,
         w.on_hold::text as on_hold,
         (-coalesce(sum(t.amount) filter (where t.type = 'hold' and t.status = 'pending'), 0))::numeric(12, 2)::text as held
  from public.wallet_balances w left join public.wallet_transactions t on t.user_id = w.user_id
  group by w.user_id, w.balance, w.on_hold
  having w.balance <> coalesce(sum(t.amount) filter (where t.status = 'completed'), 0)
      or w.on_hold <> -coalesce(sum(t.amount) filter (where t.type = 'hold' and t.status = 'pending'), 0)`

export const INVARIANTS: Invariant[] = [
  { name: 'every wallet balance and on-hold figure equals its ledger', sql: LEDGER_MISMATCHES_SQL },
  {
    name: 'no ledger row without a wallet, and no wallet below zero',
    sql: `
      select t.user_id, 'no wallet' as problem from public.wallet_transactions t
      where not exists (select 1 from public.wallet_balances w where w.user_id = t.user_id)
      group by t.user_id
      union all
      select user_id, 'negative: ' || balance from public.wallet_balances where balance < 0 or on_hold < 0`,
  },
  {
    name: 'no deposit credited twice (one deposit ledger row per checkout session, at most)',
    sql: `
      select d.stripe_session_id, count(t.id)::int as credits from public.deposits d
      join public.wallet_transactions t on t.reference = d.stripe_session_id and t.type in ('deposit', 'credit')
      group by d.stripe_session_id having count(t.id) > 1`,
  },
  {
    name: 'a completed deposit is credited once for its amount to its advertiser; any other deposit is not credited',
    sql: `
      select d.stripe_session_id, d.status::text, d.amount::text, t.amount::text as credited
      from public.deposits d left join public.wallet_transactions t on t.id = d.transaction_id
      where (d.status = 'completed' and (t.id is null or t.amount <> d.amount or t.user_id <> d.user_id
                                         or t.status <> 'completed'))
         or (d.status <> 'completed' and exists (
               select 1 from public.wallet_transactions x
               where x.reference = d.stripe_session_id and x.type in ('deposit', 'credit')))`,
  },
  {
    name: 'no payout transferred twice (one payout ledger row per request, at most)',
    sql: `
      select reference, count(*)::int as rows from public.wallet_transactions
      where type = 'payout' group by reference having count(*) > 1`,
  },
  {
    // A transfer Stripe reversed keeps its payout row; what came back is posted beside it
    // (`payout:<id>:reversed:<cents>`, record_payout_reversal) and adds up to amount_reversed.
    name: 'a paid (or reversed) payout request has exactly its ledger row and its reversals; an unpaid one has none',
    sql: `
      select r.id, r.status, r.amount::text, t.amount::text as ledger, coalesce(b.back, 0)::text as reversed_in_ledger
      from public.payout_requests r
      left join public.wallet_transactions t on t.reference = 'payout:' || r.id and t.type = 'payout'
      left join lateral (select sum(x.amount) as back from public.wallet_transactions x
                         where x.type = 'payout' and x.reference like 'payout:' || r.id || ':reversed:%') b on true
      where (r.status in ('paid', 'reversed') and (t.id is null or t.amount <> -r.amount or t.user_id <> r.publisher_id
               or t.id <> r.transaction_id or coalesce(b.back, 0) <> r.amount_reversed))
         or (r.status not in ('paid', 'reversed') and (t.id is not null or b.back is not null))`,
  },
  {
    name: 'publishers never withdraw more than they earned (completed earnings cover payouts and open requests)',
    sql: `
      select p.id, coalesce(l.completed, 0)::text as completed, coalesce(o.open, 0)::text as open_requests
      from public.profiles p
      left join (select user_id, sum(amount) as completed from public.wallet_transactions
                 where status = 'completed' group by user_id) l on l.user_id = p.id
      left join (select publisher_id, sum(amount) as open from public.payout_requests
                 where status in ('requested', 'sending') group by publisher_id) o on o.publisher_id = p.id
      where p.user_type = 'publisher' and coalesce(l.completed, 0) - coalesce(o.open, 0) < 0`,
  },
  {
    name: 'every counted subscriber is charged once (one hold, settled into at most one debit) and earns once',
    sql: `
      select s.id, count(*) filter (where t.type = 'hold' and t.status <> 'canceled') as open_holds,
             count(*) filter (where t.type = 'hold') as holds,
             count(*) filter (where t.type = 'debit') as debits,
             count(*) filter (where t.type = 'earning' and t.status <> 'canceled') as earnings
      from public.newsletter_subscriptions s
      join public.wallet_transactions t on t.subscription_id = s.id
      where s.counted
      group by s.id
      having count(*) filter (where t.type = 'hold') <> 1
          or count(*) filter (where t.type = 'debit') > 1
          or count(*) filter (where t.type = 'hold' and t.status = 'pending')
             + count(*) filter (where t.type = 'debit' and t.status = 'completed') <> 1
          or count(*) filter (where t.type = 'earning' and t.status <> 'canceled') <> 1`,
  },
  {
    name: "publishers' earnings are 80% of what advertisers are charged, per campaign",
    sql: `
      select c.campaign_id, c.charged::text, c.earned::text from (
        select t.campaign_id,
          -sum(t.amount) filter (where (t.type = 'hold' and t.status = 'pending') or (t.type = 'debit' and t.status = 'completed')) as charged,
          sum(t.amount) filter (where t.type = 'earning' and t.status in ('pending', 'completed')) as earned,
          sum(round(-t.amount * 0.8, 2)) filter (where (t.type = 'hold' and t.status = 'pending') or (t.type = 'debit' and t.status = 'completed')) as expected
        from public.wallet_transactions t
        where t.subscription_id is not null and t.type in ('hold', 'debit', 'earning')
        group by t.campaign_id) c
      where coalesce(c.earned, 0) <> coalesce(c.expected, 0)`,
  },
  {
    name: 'an earning becomes available only after its subscriber’s hold has settled',
    sql: `
      select e.id, e.subscription_id from public.wallet_transactions e
      where e.type = 'earning' and e.status = 'completed' and e.subscription_id is not null
        and exists (select 1 from public.wallet_transactions h
                    where h.subscription_id = e.subscription_id and h.type = 'hold' and h.status = 'pending')`,
  },
  {
    name: 'a debit exists only for a hold released after screening, for the same amount',
    sql: `
      select d.id, d.reference, d.amount::text from public.wallet_transactions d
      where d.type = 'debit' and d.subscription_id is not null and not exists (
        select 1 from public.wallet_transactions h
        where h.type = 'hold' and h.reference = d.reference and h.status = 'canceled' and h.amount = d.amount)`,
  },
  {
    name: "a campaign's spent budget is what its subscribers were charged, its reserved budget what its pending ones hold back",
    sql: `
      select c.id, c.budget_spent::text, ch.charged::text, c.budget_reserved::text, rs.reserved::text
      from public.campaigns c
      left join (select campaign_id, -sum(amount) as charged from public.wallet_transactions
                 where subscription_id is not null
                   and ((type = 'hold' and status = 'pending') or (type = 'debit' and status = 'completed'))
                 group by campaign_id) ch on ch.campaign_id = c.id
      left join (select campaign_id, sum(reserved_amount) as reserved from public.newsletter_subscriptions
                 where reserved_amount > 0 group by campaign_id) rs on rs.campaign_id = c.id
      where c.budget_spent <> coalesce(ch.charged, 0) or c.budget_reserved <> coalesce(rs.reserved, 0)`,
  },
]

/** Runs every invariant; the result lists each with up to 5 rows that break it. */
export async function checkMoneyInvariants(db: Queryable): Promise<InvariantResult[]> {
  const results: InvariantResult[] = []
  for (const { name, sql } of INVARIANTS) {
    const { rows } = await db.query<Record<string, unknown>>(`select * from (${sql}) v limit 5`)
    results.push({ name, ok: rows.length === 0, violations: rows })
  }
  return results
}
