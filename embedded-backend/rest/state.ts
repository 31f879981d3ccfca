/**
 * What one REST handler knows between requests: the schema cache of each exposed schema, the roles' statement
 * timeouts, the in-database settings (db-config.ts) over config.toml, and the plans of read shapes
 * (plan-cache.ts). All of it loads at start, on `reload()`, and again (throttled) when a request names a table
 * or function the cache does not know, so tables created after start are found.
 */
import type { Db } from '../db/database'
import { loadRoleTimeouts, type RoleTimeouts } from '../db/role-timeouts'
import { loadDbConfig } from './db-config'
import { PlanCache } from './plan-cache'
import type { OptionSettings, RunContext } from './request-options'
import { loadSchemaCaches, type SchemaCache } from './schema-cache'

const RELOAD_ON_MISS_MS = 1000

/** config.toml's `[api]` settings, which the authenticator role's `pgrst.*` settings override when set. */
export type ApiConfig = { maxRows?: number; aggregates: boolean; planEnabled: boolean }

export class RestState {
  caches: Map<string, SchemaCache> | null = null
  timeouts: RoleTimeouts = {}
  /** What every request runs with; `run` and `optionSettings` are read per request. */
  readonly run: RunContext
  readonly optionSettings: OptionSettings
  readonly plans = new PlanCache()
  private loading: Promise<Map<string, SchemaCache>> | null = null
  private lastLoad = 0

  constructor(
    readonly db: Db,
    readonly schemas: string[],
    private readonly config: ApiConfig,
  ) {
    this.run = { maxRows: config.maxRows, aggregates: config.aggregates }
    this.optionSettings = { schemas, planEnabled: config.planEnabled }
  }

  load(): Promise<Map<string, SchemaCache>> {
    const { db, schemas, config } = this
    this.loading ??= Promise.all([loadSchemaCaches(db, schemas), loadRoleTimeouts(db), loadDbConfig(db)])
      .then(([s, t, c]) => {
        this.caches = s
        this.timeouts = t
        this.plans.clear()
        this.run.aggregates = c.aggregates ?? config.aggregates
        this.optionSettings.planEnabled = c.planEnabled ?? config.planEnabled
        this.lastLoad = Date.now()
        return s
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }

  /** An explicit reload must see changes made after a load already in flight began, so it waits for that one first. */
  async reload(): Promise<void> {
    await this.loading?.catch(() => {})
    await this.load()
  }

  async current(schema: string): Promise<SchemaCache> {
    return (this.caches ?? (await this.load())).get(schema)!
  }

  /** A miss may mean the schema changed since the last load; reload at most once a second for misses. */
  async reloadOnMiss(schema: string, found: (s: SchemaCache) => boolean): Promise<SchemaCache> {
    const s = await this.current(schema)
    if (found(s) || Date.now() - this.lastLoad < RELOAD_ON_MISS_MS) return s
    return (await this.load()).get(schema)!
  }
}
