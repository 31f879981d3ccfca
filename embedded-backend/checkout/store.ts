/**
 * Where the local checkout keeps its sessions and webhook deliveries. Stripe never forgets a paid session or a
 * webhook it still owes, so neither may the stand-in: a payment made just before the backend stopped (or
 * crashed) is delivered when it starts again. The backend keeps them in its own database, in a schema of the
 * local backend's (`local_checkout`, like `auth`, never part of the product's migrations or its REST API);
 * the unit tests of the sender use the in-memory store.
 */
import type { Db } from '../db/database'
import { localTables, prepareLocalTables } from '../db/local-tables'
import type { OwedEvent } from './webhook-sender'

/**
 * A Checkout Session as Stripe answers it (the fields the product reads). It lives here, with what is stored,
 * so sessions.ts and this module do not import each other (`npm run lint` refuses import cycles).
 */
export type LocalSession = {
  id: string
  object: 'checkout.session'
  mode: 'payment'
  status: 'open' | 'complete' | 'expired'
  payment_status: 'unpaid' | 'paid'
  amount_subtotal: number
  amount_total: number
  currency: string
  client_reference_id: string | null
  customer_email: string | null
  customer_details: { email: string | null } | null
  metadata: Record<string, string>
  payment_intent: string | null
  success_url: string
  cancel_url: string
  url: string | null
  created: number
  expires_at: number
  livemode: false
}

export type StoredSession = { session: LocalSession; productName: string; idempotencyKey: string | null }

/** One event owed to the webhook: sent until it answers 2xx, or given up after the last retry. */
export type StoredDelivery = OwedEvent & { sessionId: string }

export type CheckoutStore = {
  /** Every session, and the deliveries still pending. */
  load(): Promise<{ sessions: StoredSession[]; deliveries: StoredDelivery[] }>
  /** Saves a session and, when given, a delivery of it, together (one transaction where there is one). */
  save(session: StoredSession | null, delivery?: StoredDelivery): Promise<void>
}

export function memoryStore(): CheckoutStore {
  return { load: async () => ({ sessions: [], deliveries: [] }), save: async () => {} }
}

/**
 * The test checkout and the Connect stand-in keep their tables in this one schema and create it as they start, at
 * the same moment: on PostgreSQL two concurrent `create schema if not exists` can both miss and one fail with a
 * duplicate key. Whoever creates it first holds this lock for its transaction (exec's statements are one).
 */
export const LOCAL_CHECKOUT_SCHEMA = `
select pg_advisory_xact_lock(hashtext('growletter local_checkout schema'));
create schema if not exists local_checkout;
revoke all on schema local_checkout from public;`

const SCHEMA = `${LOCAL_CHECKOUT_SCHEMA}
create table if not exists local_checkout.sessions (
  id text primary key,
  session jsonb not null,
  product_name text not null,
  idempotency_key text unique,
  updated_at timestamptz not null default now()
);
create table if not exists local_checkout.deliveries (
  event_id text primary key,
  type text not null,
  session_id text not null,
  payload text not null,
  attempts int not null,
  next_attempt_at timestamptz not null,
  state text not null check (state in ('pending', 'delivered', 'gave_up'))
);
create index if not exists deliveries_pending_idx on local_checkout.deliveries (next_attempt_at) where state = 'pending';`

/** The store in the backend's database (PGlite or PostgreSQL), its tables created on first write (local-tables.ts). */
export async function databaseStore(db: Db): Promise<CheckoutStore> {
  const tables = localTables(db, 'local_checkout.deliveries', SCHEMA)
  await prepareLocalTables(tables)
  const saveSession = (tx: Pick<Db, 'query'>, s: StoredSession) =>
    tx.query(
      `insert into local_checkout.sessions (id, session, product_name, idempotency_key) values ($1, $2, $3, $4)
       on conflict (id) do update set session = excluded.session, updated_at = now()`,
      [s.session.id, JSON.stringify(s.session), s.productName, s.idempotencyKey],
    )
  const saveDelivery = (tx: Pick<Db, 'query'>, d: StoredDelivery) =>
    tx.query(
      `insert into local_checkout.deliveries (event_id, type, session_id, payload, attempts, next_attempt_at, state)
       values ($1, $2, $3, $4, $5, to_timestamp($6 / 1000.0), $7)
       on conflict (event_id) do update set attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
         state = excluded.state`,
      [d.eventId, d.type, d.sessionId, d.payload, d.attempts, d.nextAttemptAt, d.state],
    )
  return {
    async load() {
      if (!(await tables.exist())) return { sessions: [], deliveries: [] }
      const sessions = await db.query<{
        session: LocalSession | string
        product_name: string
        idempotency_key: string | null
      }>('select session, product_name, idempotency_key from local_checkout.sessions')
      const deliveries = await db.query<{
        event_id: string
        type: string
        session_id: string
        payload: string
        attempts: number
        next_attempt_at_ms: string | number
      }>(
        `select event_id, type, session_id, payload, attempts, (extract(epoch from next_attempt_at) * 1000)::bigint as next_attempt_at_ms
           from local_checkout.deliveries where state = 'pending' order by next_attempt_at`,
      )
      return {
        sessions: sessions.rows.map((r) => ({
          session: typeof r.session === 'string' ? (JSON.parse(r.session) as LocalSession) : r.session,
          productName: r.product_name,
          idempotencyKey: r.idempotency_key,
        })),
        deliveries: deliveries.rows.map((r) => ({
          eventId: r.event_id,
          type: r.type,
          sessionId: r.session_id,
          payload: r.payload,
          attempts: r.attempts,
          nextAttemptAt: Number(r.next_attempt_at_ms),
          state: 'pending' as const,
        })),
      }
    },
    async save(session, delivery) {
      await tables.ensure()
      if (session && delivery) {
        await db.transaction(async (tx) => {
          await saveSession(tx, session)
          await saveDelivery(tx, delivery)
        })
      } else if (session) await saveSession(db, session)
      else if (delivery) await saveDelivery(db, delivery)
    },
  }
}
