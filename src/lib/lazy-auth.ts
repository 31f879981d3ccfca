/**
 * An `AuthClient` whose code (auth-js, ~23 KB gzip) is downloaded only when something needs it: a stored
 * session, an auth link's hash, or any call to one of its methods. Visitors who never sign in never load it.
 *
 * Callers keep auth-js's API: every method returns a promise anyway, so before the load a call waits for the
 * client and then runs; once loaded, members are the real client's. `onAuthStateChange` stays synchronous
 * (it returns the subscription at once) and attaches the listener to the real client when that arrives.
 */
import type { GoTrueClient, Subscription } from '@supabase/auth-js'

/** The instance type of auth-js's `AuthClient` (an alias of `GoTrueClient`). */
export type AuthClient = GoTrueClient

type Listener = Parameters<AuthClient['onAuthStateChange']>[0]
type Method = (...args: unknown[]) => unknown

export type LazyAuth = {
  /** Stands in for the real client, with its type and API. */
  auth: AuthClient
  /** Starts loading (once) and resolves to the real client. */
  load: () => Promise<AuthClient>
  /** The load in flight or done, if one was started; never starts one. */
  started: () => Promise<AuthClient> | null
}

export function createLazyAuth(importClient: () => Promise<AuthClient>): LazyAuth {
  let client: AuthClient | null = null
  let pending: Promise<AuthClient> | null = null
  // Listeners registered before the client existed, attached when it arrives.
  const waiting = new Set<{ callback: Listener; attach: (real: AuthClient) => void }>()

  const load = () =>
    (pending ??= importClient().then(
      (real) => {
        client = real
        for (const listener of waiting) listener.attach(real)
        waiting.clear()
        return real
      },
      (error: unknown) => {
        // A failed chunk download must not stick: the next call tries again.
        pending = null
        throw error
      },
    ))

  function onAuthStateChange(callback: Listener): { data: { subscription: Subscription } } {
    if (client) return client.onAuthStateChange(callback)
    let real: Subscription | null = null
    const entry = {
      callback,
      attach: (loaded: AuthClient) => (real = loaded.onAuthStateChange(callback).data.subscription),
    }
    waiting.add(entry)
    const subscription: Subscription = {
      id: Symbol('lazy-auth-subscription'),
      callback: callback as Subscription['callback'],
      unsubscribe: () => {
        waiting.delete(entry)
        real?.unsubscribe()
      },
    }
    return { data: { subscription } }
  }

  /** A member path of the client (e.g. ['mfa'] or []) whose methods wait for the load when called early. */
  const deferred = (path: string[]): object =>
    new Proxy(
      {},
      {
        get(_, prop) {
          const owner = client && path.reduce<object>((node, key) => Reflect.get(node, key) as object, client)
          if (owner) {
            const value: unknown = Reflect.get(owner, prop)
            return typeof value === 'function' ? (value as Method).bind(owner) : value
          }
          if (path.length === 0 && prop === 'onAuthStateChange') return onAuthStateChange
          // Not a thenable, and no symbol-keyed protocol: only named members are deferred.
          if (typeof prop === 'symbol' || prop === 'then') return undefined
          if (path.length === 0 && ['mfa', 'admin', 'oauth', 'passkey'].includes(prop)) return deferred([prop])
          return async (...args: unknown[]) => {
            const node = path.reduce<object>((parent, key) => Reflect.get(parent, key) as object, await load())
            return (Reflect.get(node, prop) as Method).apply(node, args)
          }
        },
      },
    )

  return { auth: deferred([]) as AuthClient, load, started: () => pending }
}
