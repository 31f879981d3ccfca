/**
 * A PostgreSQL cluster of its own, prepared as hosted Supabase prepares a project's database today, for the hosted
 * lane (hosted-lane.test.ts): the cluster's superuser is supabase_admin and postgres is not one
 * (scripts/local-postgres.ts); the platform's SQL runs as supabase_admin (bootstrap.sql, hosted-platform.sql and
 * LANE_PLATFORM_SQL below), the auth schema as supabase_auth_admin (embedded-backend/auth/schema.ts), then
 * supabase/migrations and supabase/seed.sql as postgres (migrate.ts, platform.ts).
 *
 * What differs from the embedded backend's own PostgreSQL engine:
 * - real pg_cron (Debian's postgresql-15-cron, preloaded) instead of the backend's emulated `cron` schema, whose
 *   scheduler the backend's tests drive with a chosen clock (the real one runs jobs on its own clock);
 * - PUBLIC loses its default EXECUTE on the functions postgres creates, the strict reading of hosted's "Default
 *   privileges for new entities" off (its changelog speaks of tables; its dashboard of "tables and functions"):
 *   a function the API calls then works only through the explicit grant the migrations write.
 * Debian has no pg_net, supabase_vault or safeupdate package: pg_net is the embedded backend's own SQL
 * (embedded-backend/cron/pg-net.sql) installed by the platform with pg_net's and hosted's grants, Vault is
 * bootstrap.sql's, and safeupdate is not loaded.
 */
import { readFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLocalPostgres, type LocalPostgres } from '../../../scripts/local-postgres'
import { ensureAuthSchema } from '../../../embedded-backend/auth/schema'
import { openDatabase, type Db } from '../../../embedded-backend/db/database'
import { migrate, type MigrateResult } from '../../../embedded-backend/db/migrate'

const here = path.dirname(fileURLToPath(import.meta.url))
export const repoRoot = path.resolve(here, '../../..')

/**
 * As supabase_admin, after bootstrap.sql and hosted-platform.sql: what hosted does when a project enables pg_cron
 * and pg_net (supautils creates a privileged extension as supabase_admin, then runs its after-create script), and
 * hosted's default privileges for the functions postgres creates.
 */
export const LANE_PLATFORM_SQL = `
-- pg_cron, created by the platform (a migration's "create extension if not exists pg_cron" then finds it), with
-- the grants of supabase/postgres's pg_cron after-create script: postgres uses the cron schema with grant option
-- and reads cron.job, whose rows it changes only through cron.schedule / cron.unschedule.
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres with grant option;
grant all on all functions in schema cron to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on sequences to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on tables to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on functions to postgres with grant option;
grant all privileges on all tables in schema cron to postgres with grant option;
revoke all on table cron.job from postgres;
grant select on table cron.job to postgres with grant option;

-- pg_net: Debian has no package, so the embedded backend's stand-in SQL (embedded-backend/cron/pg-net.sql), as the
-- platform; then pg_net's own grants (every role may use the schema and its tables) and those of hosted's
-- grant_pg_net_access event trigger (http_get / http_post security definer, executable by postgres and the API roles).
${readFileSync(path.join(repoRoot, 'embedded-backend/cron/pg-net.sql'), 'utf8')}
grant usage on schema net to public;
grant all on all tables in schema net to public;
grant all on all sequences in schema net to public;
grant execute on all functions in schema net to public;
revoke all on function net.http_get(text, jsonb, jsonb, integer), net.http_post(text, jsonb, jsonb, jsonb, integer) from public;
grant execute on function net.http_get(text, jsonb, jsonb, integer), net.http_post(text, jsonb, jsonb, jsonb, integer)
  to postgres, anon, authenticated, service_role;

-- No default privileges for the API roles (bootstrap.sql takes back any), and none for PUBLIC on postgres's
-- functions: the schema-less form replaces Postgres's built-in EXECUTE for PUBLIC.
alter default privileges for role postgres revoke execute on functions from public;
`

/**
 * A migration as the lane applies it: pg_net's \`create extension\` is already done by the platform (Debian has no
 * pg_net to create); pg_cron's runs as written. Debian's pg_cron is 1.4, which predates interval schedules
 * ('5 seconds', pg_cron 1.5; hosted runs 1.6): with it, such a job is scheduled every minute instead.
 */
export function laneExtensions(cronVersion: string) {
  const intervals = compareVersions(cronVersion, '1.5') < 0
  return (sql: string) => {
    let out = sql.replace(
      /\bcreate\s+extension\s+(?:if\s+not\s+exists\s+)?"?pg_net"?\b[^;]*;/gi,
      (statement) => `-- hosted lane: installed by the platform: ${statement.replace(/\s+/g, ' ')}\n`,
    )
    if (intervals) {
      out = out.replace(
        /(\bcron\.schedule\s*\(\s*'[^']*'\s*,\s*)'\s*\d+\s+seconds?\s*'/gi,
        (_m, head: string) => `${head}'* * * * *'`,
      )
    }
    return out
  }
}

function compareVersions(a: string, b: string) {
  const pa = a.split(/[.-]/).map(Number)
  const pb = b.split(/[.-]/).map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

export type HostedDatabase = {
  server: LocalPostgres
  /** Connected as postgres, the role that applied the migrations and the seed. */
  db: Db
  migration: MigrateResult
  cronVersion: string
  stop(): Promise<void>
}

/** Null when PostgreSQL is not installed; throws when pg_cron is not (.ci/run installs both). */
export async function startHostedDatabase(): Promise<HostedDatabase | null> {
  const server = await startCluster()
  if (!server) return null
  let db: Db | undefined
  try {
    db = await openDatabase({ databaseUrl: server.url, poolSize: 4 })
    const available = await db.query<{ v: string | null }>(
      "select default_version as v from pg_available_extensions where name = 'pg_cron'",
    )
    const cronVersion = available.rows[0]?.v
    if (!cronVersion) throw new Error('pg_cron is not installed: apt-get install postgresql-15-cron (.ci/run does)')
    const migration = await migrate(db, {
      seed: true,
      afterBootstrap: ensureAuthSchema,
      platformSql: LANE_PLATFORM_SQL,
      extensions: laneExtensions(cronVersion),
    })
    const opened = db
    return {
      server,
      db: opened,
      migration,
      cronVersion,
      async stop() {
        await opened.close().catch(() => {})
        server.stop()
      },
    }
  } catch (error) {
    await db?.close().catch(() => {})
    server.stop()
    throw error
  }
}

/** The lane's cluster on a free port (another on the next try, should something take the port meanwhile). */
async function startCluster(): Promise<LocalPostgres | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return startLocalPostgres(await freePort(), {
        preload: ['pg_cron'],
        // pg_cron's jobs connect through the socket, as the job's user (trusted, like every local connection here).
        settings: { 'cron.database_name': 'postgres', 'cron.host': '{socket}' },
      })
    } catch (error) {
      const message = (error as Error).message
      if (/pg_cron/.test(message))
        throw new Error(`PostgreSQL cannot load pg_cron: apt-get install postgresql-15-cron (.ci/run does). ${message}`)
      if (attempt === 3) throw error
    }
  }
}

/** A port nothing listens on now (the lane's cluster takes it at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
