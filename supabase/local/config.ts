/** Loads supabase/config.toml, the settings hosted Supabase and the embedded backend share. */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'smol-toml'
import { supabaseDir } from './db/migrate'

export type SupabaseConfig = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- free-form TOML, read per key by each API

export const configPath = path.join(supabaseDir, 'config.toml')

export async function loadConfig(file = configPath): Promise<SupabaseConfig> {
  return parse(await readFile(file, 'utf8')) as SupabaseConfig
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
