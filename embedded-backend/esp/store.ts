/**
 * What the local ESP sandbox keeps: every request it received (the delivery log on its page and what the
 * contract tests read) and the subscribers it holds per provider and list. Like the local checkout
 * (checkout/store.ts) it lives in the backend's own database, in a schema of the local backend's
 * (`local_esp`: never in the product's migrations, never exposed over REST), so deliveries made during a
 * development session are still listed after a restart. Tests without a database use the memory store.
 */
import type { Db } from '../db/database'

export type RecordedRequest = {
  id: number
  provider: string
  method: string
  /** Path below the provider's base, query included, e.g. `/v2/publications?limit=100&page=1`. */
  path: string
  /** How the caller authenticated, with the secret masked: `Bearer loca…-key`, `X-Kit-Api-Key loca…-key`. */
  auth: string | null
  body: unknown
  status: number
  receivedAt: string
}

export type SandboxSubscriber = {
  provider: string
  /** Publication, form, audience or group id; '' for a Kit subscriber not (yet) on a form. */
  target: string
  email: string
  remoteId: string
  /** The provider's own fields as last received (status, consent fields, utm, referrer, tags…). */
  fields: Record<string, unknown>
  /** Opens and clicks the sandbox reports back (set with the control endpoints), people's and machines' apart. */
  engagement: SandboxEngagement
  createdAt: string
  updatedAt: string
}

/**
 * A sandbox subscriber's activity: a person's opens and clicks, and a machine's (privacy-proxy prefetches, link
 * scanners). The stand-ins report what each real tool reports: totals, machines included, since none of the four
 * tells them apart per subscriber.
 */
export type SandboxEngagement = { opens: number; clicks: number; machine_opens?: number; machine_clicks?: number }

/** What a stand-in reports: the tool's totals. */
export const reportedOpens = (e: SandboxEngagement) => e.opens + (e.machine_opens ?? 0)
export const reportedClicks = (e: SandboxEngagement) => e.clicks + (e.machine_clicks ?? 0)

export type EspStore = {
  record(r: Omit<RecordedRequest, 'id' | 'receivedAt'>): Promise<void>
  requests(provider?: string, limit?: number): Promise<RecordedRequest[]>
  get(provider: string, target: string, email: string): Promise<SandboxSubscriber | undefined>
  /** The subscriber with `email` on any list of the provider (MailerLite and Kit address people account-wide). */
  find(provider: string, email: string): Promise<SandboxSubscriber | undefined>
  /** Inserts or replaces one subscriber; answers whether it was new. */
  put(
    s: Omit<SandboxSubscriber, 'createdAt' | 'updatedAt' | 'engagement'>,
  ): Promise<{ created: boolean; subscriber: SandboxSubscriber }>
  /** Takes one subscriber off one list; answers whether they were on it. */
  remove(provider: string, target: string, email: string): Promise<boolean>
  setEngagement(provider: string, email: string, engagement: SandboxEngagement): Promise<number>
  subscribers(provider?: string): Promise<SandboxSubscriber[]>
  clear(): Promise<void>
}

const SCHEMA = `
create schema if not exists local_esp;
revoke all on schema local_esp from public;
create table if not exists local_esp.requests (
  id bigserial primary key,
  provider text not null,
  method text not null,
  path text not null,
  auth text,
  body jsonb,
  status int not null,
  received_at timestamptz not null default now()
);
create table if not exists local_esp.subscribers (
  provider text not null,
  target text not null,
  email text not null,
  remote_id text not null,
  fields jsonb not null,
  engagement jsonb not null default '{"opens":0,"clicks":0}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (provider, target, email)
);`

type Row = {
  provider: string
  target: string
  email: string
  remote_id: string
  fields: Record<string, unknown> | string
  engagement: SandboxEngagement | string
  created_at: Date | string
  updated_at: Date | string
}
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v)
const iso = (v: Date | string) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString())
const fromRow = (r: Row): SandboxSubscriber => ({
  provider: r.provider,
  target: r.target,
  email: r.email,
  remoteId: r.remote_id,
  fields: json(r.fields),
  engagement: json(r.engagement),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
})

/** Changes to one subscriber the sandbox's control endpoint and removal routes make. */
function subscriberWrites(db: Db): Pick<EspStore, 'remove' | 'setEngagement'> {
  return {
    async remove(provider, target, email) {
      const rows = await db.query(
        'delete from local_esp.subscribers where provider = $1 and target = $2 and email = $3',
        [provider, target, email.toLowerCase()],
      )
      return rows.affectedRows > 0
    },
    async setEngagement(provider, email, engagement) {
      const rows = await db.query(
        'update local_esp.subscribers set engagement = $3, updated_at = now() where provider = $1 and email = $2',
        [provider, email.toLowerCase(), JSON.stringify(engagement)],
      )
      return rows.affectedRows
    },
  }
}

export async function databaseEspStore(db: Db): Promise<EspStore> {
  await db.exec(SCHEMA)
  const select =
    'select provider, target, email, remote_id, fields, engagement, created_at, updated_at from local_esp.subscribers'
  return {
    async record(r) {
      await db.query(
        'insert into local_esp.requests (provider, method, path, auth, body, status) values ($1, $2, $3, $4, $5, $6)',
        [r.provider, r.method, r.path, r.auth, r.body === undefined ? null : JSON.stringify(r.body), r.status],
      )
    },
    async requests(provider, limit = 200) {
      const rows = await db.query<{
        id: string | number
        provider: string
        method: string
        path: string
        auth: string | null
        body: unknown
        status: number
        received_at: Date | string
      }>(
        `select id, provider, method, path, auth, body, status, received_at from local_esp.requests
          where $1::text is null or provider = $1 order by id desc limit $2`,
        [provider ?? null, limit],
      )
      return rows.rows.map((r) => ({
        id: Number(r.id),
        provider: r.provider,
        method: r.method,
        path: r.path,
        auth: r.auth,
        body: typeof r.body === 'string' ? JSON.parse(r.body) : r.body,
        status: r.status,
        receivedAt: iso(r.received_at),
      }))
    },
    async get(provider, target, email) {
      const rows = await db.query<Row>(`${select} where provider = $1 and target = $2 and email = $3`, [
        provider,
        target,
        email.toLowerCase(),
      ])
      return rows.rows[0] ? fromRow(rows.rows[0]) : undefined
    },
    async find(provider, email) {
      const rows = await db.query<Row>(`${select} where provider = $1 and email = $2 order by created_at limit 1`, [
        provider,
        email.toLowerCase(),
      ])
      return rows.rows[0] ? fromRow(rows.rows[0]) : undefined
    },
    async put(s) {
      const rows = await db.query<Row & { created: boolean }>(
        `insert into local_esp.subscribers as s (provider, target, email, remote_id, fields) values ($1, $2, $3, $4, $5)
         on conflict (provider, target, email) do update set fields = s.fields || excluded.fields, updated_at = now()
         returning provider, target, email, remote_id, fields, engagement, created_at, updated_at, (xmax = 0) as created`,
        [s.provider, s.target, s.email.toLowerCase(), s.remoteId, JSON.stringify(s.fields)],
      )
      const row = rows.rows[0]!
      return { created: row.created, subscriber: fromRow(row) }
    },
    ...subscriberWrites(db),
    async subscribers(provider) {
      const rows = await db.query<Row>(`${select} where $1::text is null or provider = $1 order by updated_at desc`, [
        provider ?? null,
      ])
      return rows.rows.map(fromRow)
    },
    async clear() {
      await db.exec('truncate local_esp.requests, local_esp.subscribers')
    },
  }
}
