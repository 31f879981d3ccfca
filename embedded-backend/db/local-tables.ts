/**
 * The tables a local stand-in keeps in the backend's database (the checkout's and Connect's `local_checkout`): made on
 * the stand-in's first write, not at every start. A new database has none, so there is nothing to load and reads
 * answer empty until something is written; a database that has them (a development database after a restart) gets
 * the DDL at start as before (each statement `if not exists`, so a table or index added to it since is made), and its
 * rows are loaded. Their first write is one API call's (a checkout session, an account), never several at once.
 * Why: most backends a test run starts never use a stand-in; making the stand-ins' tables cost ≈45 ms of CPU per
 * start on PGlite (50 ms against 4 ms when they exist and 0.4 ms for the probe, measured 6 starts each on a loaded
 * machine, all three stand-ins). The ESP sandbox's `local_esp` stays made at start (esp/store.ts): its first writes
 * are deliveries arriving together, whose order the list read-back tests depend on, and made on first write they
 * all waited for the tables and then raced (esp-engagement-list-flow.test.ts failed 3 runs in 9 on PostgreSQL).
 */
import type { Db } from './database'

export type LocalTables = {
  /** Whether the tables exist: asked of the database until they do (another backend may make them), then known. */
  exist(): Promise<boolean>
  /** Makes them (once; again after a failure) and answers when writes can go. */
  ensure(): Promise<void>
}

/** `probe` is a table the `ddl` makes (all of it in one transaction, so one table stands for all). */
export function localTables(db: Db, probe: string, ddl: string): LocalTables {
  let known = false
  let making: Promise<void> | undefined
  const ensure = () => {
    making ??= db.exec(ddl).then(
      () => {
        known = true
      },
      (error: unknown) => {
        making = undefined
        throw error
      },
    )
    return making
  }
  return {
    async exist() {
      if (known) return true
      const { rows } = await db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [probe])
      known = rows[0]?.found === true
      return known
    },
    ensure,
  }
}

/** At start: the DDL again where the tables exist (as before), nothing where they do not. */
export async function prepareLocalTables(tables: LocalTables): Promise<void> {
  if (await tables.exist()) await tables.ensure()
}
