import { describe, expect, it, vi } from 'vitest'
import { AuthClient } from '@supabase/auth-js'
import { createLazyAuth, type AuthClient as AuthClientInstance } from '@/lib/lazy-auth'

/** A real auth-js client on in-memory storage: every call below is answered without the network. */
function realClient(): AuthClientInstance {
  const memory = new Map<string, string>()
  return new AuthClient({
    url: 'http://auth.test/auth/v1',
    storageKey: 'sb-lazy-test-auth-token',
    storage: {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    },
    persistSession: true,
    autoRefreshToken: false,
    detectSessionInUrl: false,
  })
}

describe('lazy auth client', () => {
  it('downloads nothing until a method is called, then runs the call on the real client', async () => {
    const load = vi.fn(async () => realClient())
    const lazy = createLazyAuth(load)
    expect(lazy.started()).toBeNull()
    const { data, error } = await lazy.auth.getSession()
    expect(load).toHaveBeenCalledTimes(1)
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    await lazy.auth.getSession()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('defers the mfa namespace the same way', async () => {
    const lazy = createLazyAuth(async () => realClient())
    const { error } = await lazy.auth.mfa.listFactors()
    // Signed out: auth-js itself answers that a session is missing, which proves the real method ran.
    expect(error?.name).toBe('AuthSessionMissingError')
  })

  it('returns a subscription at once and attaches the listener when the client arrives', async () => {
    const lazy = createLazyAuth(async () => realClient())
    const events: string[] = []
    const { data } = lazy.auth.onAuthStateChange((event) => void events.push(event))
    expect(typeof data.subscription.unsubscribe).toBe('function')
    expect(events).toEqual([])
    await lazy.load()
    // A limit that only stops a hang: vi.waitFor's own 1 s is a speed.
    await vi.waitFor(() => expect(events).toEqual(['INITIAL_SESSION']), { timeout: 50_000, interval: 20 })
  })

  it('never attaches a listener that unsubscribed before the client arrived', async () => {
    const lazy = createLazyAuth(async () => realClient())
    const events: string[] = []
    lazy.auth.onAuthStateChange((event) => void events.push(event)).data.subscription.unsubscribe()
    const client = await lazy.load()
    await client.getSession()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(events).toEqual([])
  })

  it('tries the download again after a failed one', async () => {
    const load = vi.fn<() => Promise<AuthClientInstance>>()
    load.mockRejectedValueOnce(new Error('chunk failed')).mockImplementation(async () => realClient())
    const lazy = createLazyAuth(load)
    await expect(lazy.auth.getSession()).rejects.toThrow('chunk failed')
    expect(lazy.started()).toBeNull()
    expect((await lazy.auth.getSession()).error).toBeNull()
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('is not mistaken for a promise', async () => {
    const lazy = createLazyAuth(async () => realClient())
    expect(await Promise.resolve(lazy.auth)).toBe(lazy.auth)
    expect(lazy.started()).toBeNull()
  })
})
