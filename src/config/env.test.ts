import { describe, expect, it } from 'vitest'
import { parseEnv } from '@/config/env'

const PUBLISHABLE = 'sb_publishable_O4J50jCOuEP71a0dZ2sdag_AuD3Rt05'

describe('parseEnv', () => {
  it('accepts a URL and an anon key, and uses the anon key when no publishable key is set', async () => {
    const env = await parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })
    expect(env.VITE_SUPABASE_URL).toBe('http://127.0.0.1:54321')
    expect(env.supabaseKey).toBe('x'.repeat(40))
  })

  it('uses the publishable key when one is set, beside the anon key or alone', async () => {
    const url = 'http://127.0.0.1:54321'
    const both = {
      VITE_SUPABASE_URL: url,
      VITE_SUPABASE_PUBLISHABLE_KEY: PUBLISHABLE,
      VITE_SUPABASE_ANON_KEY: 'x'.repeat(40),
    }
    expect((await parseEnv(both)).supabaseKey).toBe(PUBLISHABLE)
    expect((await parseEnv({ VITE_SUPABASE_URL: url, VITE_SUPABASE_PUBLISHABLE_KEY: PUBLISHABLE })).supabaseKey).toBe(
      PUBLISHABLE,
    )
    // An empty publishable key (a blank line in .env) leaves the anon key in charge.
    expect((await parseEnv({ ...both, VITE_SUPABASE_PUBLISHABLE_KEY: '' })).supabaseKey).toBe('x'.repeat(40))
  })

  it('refuses a secret key, which hosted Supabase refuses from browsers', async () => {
    await expect(
      parseEnv({
        VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
        VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_secret_' + 'x'.repeat(30),
      }),
    ).rejects.toThrow(/secret key \(sb_secret_…\): use the publishable key/)
  })

  it('names the missing URL and says how to get it', async () => {
    await expect(parseEnv({ VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })).rejects.toThrow(/VITE_SUPABASE_URL.*npm run dev/)
  })

  it('names both key variables when neither is set, and says how to get them', async () => {
    await expect(parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321' })).rejects.toThrow(
      /VITE_SUPABASE_PUBLISHABLE_KEY \(or the legacy VITE_SUPABASE_ANON_KEY\) is missing.*npm run dev/,
    )
  })

  it('names a short key as missing too', async () => {
    await expect(
      parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'short' }),
    ).rejects.toThrow(/VITE_SUPABASE_PUBLISHABLE_KEY \(or the legacy VITE_SUPABASE_ANON_KEY\) is missing/)
  })

  it('leaves URLs the quick check does not vouch for to the schema', async () => {
    // Not http(s): the quick check declines, zod's z.url() still accepts it.
    const env = await parseEnv({ VITE_SUPABASE_URL: 'ftp://example.test', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })
    expect(env.VITE_SUPABASE_URL).toBe('ftp://example.test')
  })
})
