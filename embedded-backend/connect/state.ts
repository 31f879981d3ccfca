/**
 * What one local Connect stand-in holds (its accounts, links, transfers and remembered idempotent requests) and the
 * helpers every endpoint shares: run a create once per Idempotency-Key, find an account, change one and report it.
 */
import { createDeliveries, type DeliveryOptions } from './deliveries'
import { memoryStore, type ConnectStore, type ObjectKind, type StoredObject } from './store'
import { canonical, StripeRequestError, type LocalAccount, type LocalLink, type LocalTransfer } from './stripe-objects'

export type ConnectOptions = Omit<DeliveryOptions, 'store'> & {
  /** Where the onboarding page is served, e.g. http://127.0.0.1:54321/checkout/connect */
  pageBaseUrl: string
  store?: ConnectStore
  /** The clock (epoch ms); tests move it to expire links. */
  now?: () => number
}

export type ConnectState = {
  options: ConnectOptions
  store: ConnectStore
  deliveries: ReturnType<typeof createDeliveries>
  nowSeconds: () => number
  accounts: Map<string, LocalAccount>
  transfers: Map<string, LocalTransfer>
  links: Map<string, LocalLink>
  /** Per endpoint: key → the request's parameters and its answer (a promise, so a concurrent retry shares it). */
  idempotent: Map<string, { params: string; result: Promise<{ id: string }> }>
}

export function createState(options: ConnectOptions): ConnectState {
  const store = options.store ?? memoryStore()
  const now = options.now ?? Date.now
  return {
    options,
    store,
    deliveries: createDeliveries({ ...options, store }),
    nowSeconds: () => Math.floor(now() / 1000),
    accounts: new Map(),
    transfers: new Map(),
    links: new Map(),
    idempotent: new Map(),
  }
}

export const stored = (
  kind: ObjectKind,
  id: string,
  body: unknown,
  key: string | null = null,
  params: string | null = null,
): StoredObject => ({
  kind,
  id,
  body,
  idempotencyKey: key,
  requestParams: params,
})

/**
 * Runs a create once per Idempotency-Key, as Stripe does: the same key with the same parameters answers the first
 * result again (`replayed`); with other parameters it is Stripe's idempotency_error. A request refused before
 * anything was made (a validation error) is not remembered, as Stripe saves no result for it.
 */
export async function once<T extends { id: string }>(
  state: ConnectState,
  endpoint: string,
  key: string | undefined,
  params: URLSearchParams,
  make: (key: string | null, params: string) => Promise<T>,
): Promise<{ object: T; replayed: boolean }> {
  const request = canonical(params)
  if (!key) return { object: await make(null, request), replayed: false }
  const slot = `${endpoint} ${key}`
  const earlier = state.idempotent.get(slot)
  if (earlier) {
    if (earlier.params !== request) {
      throw new StripeRequestError(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      })
    }
    return { object: (await earlier.result) as T, replayed: true }
  }
  const result = make(key, request)
  state.idempotent.set(slot, { params: request, result })
  try {
    return { object: await result, replayed: false }
  } catch (error) {
    state.idempotent.delete(slot)
    throw error
  }
}

export function accountOf(state: ConnectState, id: string): LocalAccount {
  const found = state.accounts.get(id)
  if (!found)
    throw new StripeRequestError(404, {
      type: 'invalid_request_error',
      message: `No such account: '${id}'`,
      code: 'resource_missing',
      param: 'account',
    })
  return found
}

/** Applies a change to an account, saves it with its account.updated event (previous_attributes as Stripe sends). */
export async function update(
  state: ConnectState,
  id: string,
  change: (a: LocalAccount) => void,
  wait: boolean,
): Promise<LocalAccount> {
  const current = accountOf(state, id)
  const before = structuredClone(current)
  change(current)
  const previous: Record<string, unknown> = {}
  for (const key of Object.keys(current) as Array<keyof LocalAccount>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(current[key])) previous[key] = before[key]
  }
  if (Object.keys(previous).length === 0) return current
  await state.deliveries.send(
    [stored('account', id, current)],
    'account.updated',
    current,
    { account: id, previousAttributes: previous },
    wait,
  )
  return current
}

/** What was saved before the last stop comes back, and every event still owed is sent again. */
export async function resume(state: ConnectState): Promise<void> {
  const saved = await state.store.load()
  for (const o of saved.objects) {
    if (o.kind === 'account') state.accounts.set(o.id, o.body as LocalAccount)
    else if (o.kind === 'transfer') state.transfers.set(o.id, o.body as LocalTransfer)
    else state.links.set(o.id, o.body as LocalLink)
    const endpoint = o.kind === 'account' ? 'accounts' : o.kind === 'transfer' ? 'transfers' : null
    if (endpoint && o.idempotencyKey && o.requestParams) {
      state.idempotent.set(`${endpoint} ${o.idempotencyKey}`, {
        params: o.requestParams,
        result: Promise.resolve(o.body as { id: string }),
      })
    }
  }
  state.deliveries.resume(saved.deliveries)
}
