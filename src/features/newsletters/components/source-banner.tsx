/** Names the source a visitor came through, when a magic link left its attribution in local storage. */
import { useState } from 'react'
import { SparklesIcon } from 'lucide-react'
import { readAttributedSourceName } from '../lib/source-banner'

export function SourceBanner() {
  const [name] = useState(readAttributedSourceName)
  if (!name) return null
  return (
    <p
      role="note"
      data-testid="source-banner"
      className="flex items-center gap-2 rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm"
    >
      <SparklesIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
      <span>
        You were referred by <strong>{name}</strong>. Pick the newsletters you like and subscribe in one go.
      </span>
    </p>
  )
}
