/**
 * PostgREST's in-database configuration, as hosted Supabase uses it: a project turns aggregates or plans on with
 * `alter role authenticator set pgrst.db_aggregates_enabled = 'true'; notify pgrst, 'reload config';`.
 * The settings are read from the `authenticator` role (the role PostgREST connects as), a database-specific
 * setting (`alter role … in database …`) before one for every database, exactly as PostgREST's queryDbSettings.
 * A setting found there wins over `[api]` in config.toml (PostgREST: db settings override the config file).
 * Read when the schema cache loads: at start, on `reloadSchema()`, and on `notify pgrst` (handler.ts).
 */
import type { Queryable } from '../db/database'

/** What the REST layer reads from the database; absent keys fall back to config.toml. */
export type DbConfig = { aggregates?: boolean; planEnabled?: boolean }

const SETTINGS: Record<string, keyof DbConfig> = {
  'pgrst.db_aggregates_enabled': 'aggregates',
  'pgrst.db_plan_enabled': 'planEnabled',
}

export async function loadDbConfig(db: Queryable): Promise<DbConfig> {
  const r = await db.query<{ k: string; v: string }>(
    `select distinct on (k) k, v from (
       select s.setdatabase, substr(c.setting, 1, strpos(c.setting, '=') - 1) as k,
              substr(c.setting, strpos(c.setting, '=') + 1) as v
         from pg_catalog.pg_db_role_setting s
        cross join lateral unnest(s.setconfig) as c(setting)
        where s.setrole = (select oid from pg_catalog.pg_roles where rolname = 'authenticator')
          and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
     ) kv
     where k in (${Object.keys(SETTINGS)
       .map((k) => `'${k}'`)
       .join(', ')}) and v is not null
     order by k, setdatabase desc`,
  )
  const config: DbConfig = {}
  for (const { k, v } of r.rows) config[SETTINGS[k]!] = coerceBool(v)
  return config
}

/**
 * PostgREST's coerceBool for a text setting: its letters read as a boolean in any case (`true`, `TRUE`,
 * `"True"`), else a whole number above zero is true; anything else (`on`, `yes`) reads as not set, and a
 * setting not set is off (PostgREST's default), not the config file's value.
 */
export function coerceBool(value: string): boolean {
  const letters = value.replace(/[^A-Za-z]/g, '').toLowerCase()
  if (letters === 'true') return true
  if (letters === 'false') return false
  return /^-?\d+$/.test(value) && Number(value) > 0
}
