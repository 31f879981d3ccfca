/** The source a visitor came through, when a magic link left its attribution in local storage (SPEC §3). */
import { readLocal, storageKeys } from '@/lib/storage-keys'

export function readAttributedSourceName(): string | null {
  if (!readLocal(storageKeys.audienceSourceId)) return null
  const name = readLocal(storageKeys.sourceName)?.trim()
  return name || readLocal(storageKeys.sourceUnifiedCode) || null
}
