/**
 * The `statement_timeout` each API role is configured with (`alter role anon set statement_timeout`, as
 * Supabase sets 3 s for anon and 8 s for authenticated). Postgres applies role settings when a session
 * starts as that role; the backend's sessions start as the owner and switch with `set local role`, so
 * the value is read here and set again in each request's prelude. Read from the catalog when the REST
 * schema cache loads (at start and on reload), never per request.
 */
import type { Queryable } from './database'

export type RoleTimeouts = Partial<Record<'anon' | 'authenticated' | 'service_role', string>>

export async function loadRoleTimeouts(db: Queryable): Promise<RoleTimeouts> {
  // Settings for the role in every database (setdatabase = 0) or in this one; the database-specific wins.
  const r = await db.query<{ role: keyof RoleTimeouts; value: string }>(
    `select distinct on (r.rolname) r.rolname as role, split_part(c.setting, '=', 2) as value
       from pg_catalog.pg_db_role_setting s
       join pg_catalog.pg_roles r on r.oid = s.setrole
       cross join lateral unnest(s.setconfig) as c(setting)
      where r.rolname in ('anon', 'authenticated', 'service_role')
        and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
        and c.setting like 'statement\\_timeout=%'
      order by r.rolname, s.setdatabase desc`,
  )
  return Object.fromEntries(r.rows.map((row) => [row.role, row.value]))
}
