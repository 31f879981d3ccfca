/** Loads supabase/config.toml, the settings hosted Supabase and the embedded backend share. */
import { readFile } from 'node:fs/promises'
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
