/** Loads supabase/config.toml, the settings hosted Supabase and the embedded backend share. */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'smol-toml'
import { supabaseDir } from './db/migrate'

export type SupabaseConfig = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- free-form TOML, read per key by each API

export const configPath = path.join(supabaseDir, 'config.toml')

export async function loadConfig(file = configPath, env: NodeJS.ProcessEnv = process.env): Promise<SupabaseConfig> {
  return resolveEnvReferences(parse(await readFile(file, 'utf8')), env) as SupabaseConfig
}

/**
 * What `env(NAME)` in config.toml stands for here when NAME is unset or empty: the local development values.
 * The file names production's values only through the environment (`[auth] site_url`, the redirect allow-list), so
 * `supabase config push` cannot carry localhost over a hosted project's settings; `npm run dev` needs no setup.
 * A list default replaces the one array element that names it.
 */
export const LOCAL_ENV_DEFAULTS: Record<string, string | string[]> = {
  GROWLETTER_SITE_URL: 'http://127.0.0.1:5173',
  // Vite's dev server on its other host name, `vite preview` (4173) and the end-to-end tests' preview (4174).
  GROWLETTER_REDIRECT_URL: [
    'http://localhost:5173',
    'http://127.0.0.1:4173',
    'http://localhost:4173',
    'http://127.0.0.1:4174',
  ],
}

// The Supabase CLI's pattern (Go's LoadEnvHook and CLI 3's config package): the whole string is env(NAME).
const ENV_REFERENCE = /^env\((.*)\)$/

/**
 * Resolves `env(NAME)` strings as the Supabase CLI does: a set, non-empty variable replaces the string; otherwise the
 * local default above; a name with neither stays as written (the CLI keeps the literal too, and warns).
 */
export function resolveEnvReferences(value: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const resolved = resolveEnvReferences(item, env)
      return typeof item === 'string' && Array.isArray(resolved) ? resolved : [resolved]
    })
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnvReferences(v, env)]))
  }
  if (typeof value !== 'string') return value
  const name = ENV_REFERENCE.exec(value)?.[1]
  if (name === undefined) return value
  const set = env[name]
  if (set) return set
  return LOCAL_ENV_DEFAULTS[name] ?? value
}

/** The mailbox's ports: `[local_smtp]` (Supabase CLI 2.108 and later), else `[inbucket]` (older checkouts). */
export function mailboxPorts(config: SupabaseConfig): { port?: number; smtpPort?: number } {
  const table = config.local_smtp ?? config.inbucket ?? {}
  return { port: numberSetting(table, ['port']), smtpPort: numberSetting(table, ['smtp_port']) }
}

/** A nested number setting, e.g. `numberSetting(config, ['api', 'max_rows'])`. */
export function numberSetting(config: SupabaseConfig, keys: string[]): number | undefined {
  let v: unknown = config
  for (const k of keys) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined
  return typeof v === 'number' ? v : undefined
}

/**
 * Writes the keys the SPA reads into `.env.local` (git-ignored), keeping any other lines a developer
 * put there. The service-role key is never VITE_-prefixed, so Vite never bundles it.
 */
export async function writeEnvLocal(file: string, values: Record<string, string>): Promise<void> {
  const existing = await readFile(file, 'utf8').catch(() => '')
  const lines = existing
    .split('\n')
    .filter((l) => l.trim() !== '' && !Object.keys(values).some((k) => l.startsWith(`${k}=`)))
  const next = [...lines, ...Object.entries(values).map(([k, v]) => `${k}=${v}`)].join('\n') + '\n'
  await writeFile(file, next)
}

export const envLocalPath = path.join(supabaseDir, '..', '.env.local')
