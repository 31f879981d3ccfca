import { describe, expect, it } from 'vitest'
import { parseEnv } from '@/config/env'

describe('parseEnv', () => {
  it('accepts a URL and an anon key', async () => {
    const env = await parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })
    expect(env.VITE_SUPABASE_URL).toBe('http://127.0.0.1:54321')
  })

  it('names the missing URL and says how to get it', async () => {
    await expect(parseEnv({ VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })).rejects.toThrow(/VITE_SUPABASE_URL.*npm run dev/)
  })

  it('names the missing anon key and says how to get it', async () => {
    await expect(parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321' })).rejects.toThrow(
      /VITE_SUPABASE_ANON_KEY.*npm run dev/,
    )
  })

  it('names a short anon key as missing too', async () => {
    await expect(
      parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'short' }),
    ).rejects.toThrow(/VITE_SUPABASE_ANON_KEY is missing/)
  })

  it('leaves URLs the quick check does not vouch for to the schema', async () => {
    // Not http(s): the quick check declines, zod's z.url() still accepts it.
    const env = await parseEnv({ VITE_SUPABASE_URL: 'ftp://example.test', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })
    expect(env.VITE_SUPABASE_URL).toBe('ftp://example.test')
  })
})
