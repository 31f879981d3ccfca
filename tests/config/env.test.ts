import { describe, expect, it } from 'vitest'
import { parseEnv } from '@/config/env'

describe('parseEnv', () => {
  it('accepts a URL and an anon key', () => {
    const env = parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })
    expect(env.VITE_SUPABASE_URL).toBe('http://127.0.0.1:54321')
  })

  it('names the missing URL and says how to get it', () => {
    expect(() => parseEnv({ VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) })).toThrow(/VITE_SUPABASE_URL.*npm run dev/)
  })

  it('names the missing anon key and says how to get it', () => {
    expect(() => parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321' })).toThrow(
      /VITE_SUPABASE_ANON_KEY.*npm run dev/,
    )
  })
})
