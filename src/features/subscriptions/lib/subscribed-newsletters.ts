/**
 * `subscribed_newsletters` (SPEC §3): the newsletters this browser subscribed to, as a list of unique ids.
 * A stored value that is not a list (or not JSON) is reset to an empty list.
 */
import { readLocal, storageKeys, writeLocal } from '@/lib/storage-keys'

export function readSubscribedNewsletters(): string[] {
  const raw = readLocal(storageKeys.subscribedNewsletters)
  if (raw === null) return []
  try {
    const value: unknown = JSON.parse(raw)
    if (Array.isArray(value)) return [...new Set(value.filter((id): id is string => typeof id === 'string'))]
  } catch {
    // not JSON: reset below
  }
  writeLocal(storageKeys.subscribedNewsletters, '[]')
  return []
}

export function addSubscribedNewsletters(ids: readonly string[]): string[] {
  const next = [...new Set([...readSubscribedNewsletters(), ...ids])]
  writeLocal(storageKeys.subscribedNewsletters, JSON.stringify(next))
  return next
}
