/**
 * Where the local Connect stand-in keeps its accounts, onboarding links, transfers and the webhook deliveries it
 * still owes. Stripe forgets none of them, so neither may the stand-in: an onboarding finished or a transfer made
 * just before the backend stopped is still there, and its event still delivered, when it starts again.
 *
 * The tables live in the local backend's own schema `local_checkout` (made by checkout/store.ts; the stand-in is
 * routed under the same /checkout prefix), never in the product's migrations and never exposed by the REST API.
 * Objects are kept as the JSON Stripe would answer, one table for the three kinds: the stand-in only ever looks
 * them up by id or by idempotency key.
 */
import type { Db, Queryable } from '../db/database'
import { localTables, prepareLocalTables } from '../db/local-tables'
import type { OwedEvent } from '../checkout/webhook-sender'
import { LOCAL_CHECKOUT_SCHEMA } from '../checkout/store'

export type ObjectKind = 'account' | 'account_link' | 'transfer'

export type StoredObject = {
  kind: ObjectKind
  id: string
  /** The object as the stand-in keeps it (the Stripe object, or the link's local state). */
  body: unknown
  /** `Idempotency-Key` of the request that made it, with the request's parameters (a key names one request). */
  idempotencyKey: string | null
  requestParams: string | null
}

/** One event owed to the webhook: sent until it answers 2xx, or given up after the last retry. */
/** An event owed to connect-webhook, with the object it is about (acct_… or tr_…) for the log. */
export type StoredDelivery = OwedEvent & { objectId: string }

export type ConnectStore = {
  /** Every object, and the deliveries still pending. */
  load(): Promise<{ objects: StoredObject[]; deliveries: StoredDelivery[] }>
  /** Saves objects and, when given, a delivery, together (one transaction where there is one). */
  save(objects: StoredObject[], delivery?: StoredDelivery): Promise<void>
}

export function memoryStore(): ConnectStore {
  return { load: async () => ({ objects: [], deliveries: [] }), save: async () => {} }
}

const SCHEMA = `${LOCAL_CHECKOUT_SCHEMA}
create table if not exists local_checkout.connect_objects (
  id text primary key,
  kind text not null check (kind in ('account', 'account_link', 'transfer')),
  body jsonb not null,
  idempotency_key text,
  request_params text,
  updated_at timestamptz not null default now(),
  unique (kind, idempotency_key)
);
create table if not exists local_checkout.connect_deliveries (
  event_id text primary key,
  type text not null,
  object_id text not null,
  payload text not null,
  attempts int not null,
  next_attempt_at timestamptz not null,
  state text not null check (state in ('pending', 'delivered', 'gave_up'))
);
create index if not exists connect_deliveries_pending_idx
  on local_checkout.connect_deliveries (next_attempt_at) where state = 'pending';`

/** The store in the backend's database (PGlite or PostgreSQL), its tables created on first write (local-tables.ts). */
export async function databaseStore(db: Db): Promise<ConnectStore> {
  const tables = localTables(db, 'local_checkout.connect_deliveries', SCHEMA)
  await prepareLocalTables(tables)
  const saveObject = (tx: Queryable, o: StoredObject) =>
    tx.query(
      `insert into local_checkout.connect_objects (id, kind, body, idempotency_key, request_params)
       values ($1, $2, $3, $4, $5)
       on conflict (id) do update set body = excluded.body, updated_at = now()`,
      [o.id, o.kind, JSON.stringify(o.body), o.idempotencyKey, o.requestParams],
    )
  const saveDelivery = (tx: Queryable, d: StoredDelivery) =>
    tx.query(
      `insert into local_checkout.connect_deliveries (event_id, type, object_id, payload, attempts, next_attempt_at, state)
       values ($1, $2, $3, $4, $5, to_timestamp($6 / 1000.0), $7)
       on conflict (event_id) do update set attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
         state = excluded.state`,
      [d.eventId, d.type, d.objectId, d.payload, d.attempts, d.nextAttemptAt, d.state],
    )
  return {
    async load() {
      if (!(await tables.exist())) return { objects: [], deliveries: [] }
      const objects = await db.query<{
        id: string
        kind: ObjectKind
        body: unknown
        idempotency_key: string | null
        request_params: string | null
      }>(
        'select id, kind, body, idempotency_key, request_params from local_checkout.connect_objects order by updated_at',
      )
      const deliveries = await db.query<{
        event_id: string
        type: string
        object_id: string
        payload: string
        attempts: number
        next_attempt_at_ms: string | number
      }>(
        `select event_id, type, object_id, payload, attempts,
                (extract(epoch from next_attempt_at) * 1000)::bigint as next_attempt_at_ms
           from local_checkout.connect_deliveries where state = 'pending' order by next_attempt_at`,
      )
      return {
        objects: objects.rows.map((r) => ({
          kind: r.kind,
          id: r.id,
          body: typeof r.body === 'string' ? (JSON.parse(r.body) as unknown) : r.body,
          idempotencyKey: r.idempotency_key,
          requestParams: r.request_params,
        })),
        deliveries: deliveries.rows.map((r) => ({
          eventId: r.event_id,
          type: r.type,
          objectId: r.object_id,
          payload: r.payload,
          attempts: r.attempts,
          nextAttemptAt: Number(r.next_attempt_at_ms),
          state: 'pending' as const,
        })),
      }
    },
    async save(objects, delivery) {
      await tables.ensure()
      if (objects.length + (delivery ? 1 : 0) > 1) {
        await db.transaction(async (tx) => {
          for (const o of objects) await saveObject(tx, o)
          if (delivery) await saveDelivery(tx, delivery)
        })
      } else if (objects[0]) await saveObject(db, objects[0])
      else if (delivery) await saveDelivery(db, delivery)
    },
  }
}
