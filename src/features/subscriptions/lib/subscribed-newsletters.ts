/**
 * `subscribed_newsletters` (SPEC §3): the newsletters this browser subscribed to, as a list of unique ids.
 * A stored value that is not a list (or not JSON) is reset to an empty list.
 */
import { readLocal, storageKeys, writeLocal } from '@/lib/storage-keys'

function readIds(key: string): string[] {
  const raw = readLocal(key)
  if (raw === null) return []
  try {
    const value: unknown = JSON.parse(raw)
    if (Array.isArray(value)) return [...new Set(value.filter((id): id is string => typeof id === 'string'))]
  } catch {
    // not JSON: reset below
  }
  writeLocal(key, '[]')
  return []
}

function addIds(key: string, ids: readonly string[]): string[] {
  const next = [...new Set([...readIds(key), ...ids])]
  writeLocal(key, JSON.stringify(next))
  return next
}

export const readSubscribedNewsletters = () => readIds(storageKeys.subscribedNewsletters)
export const addSubscribedNewsletters = (ids: readonly string[]) => addIds(storageKeys.subscribedNewsletters, ids)

/** `confirmed_newsletters`: the newsletters whose confirmation link was opened in this browser. */
export const readConfirmedNewsletters = () => readIds(storageKeys.confirmedNewsletters)
export const addConfirmedNewsletters = (ids: readonly string[]) => addIds(storageKeys.confirmedNewsletters, ids)
