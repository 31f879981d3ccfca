/**
 * A source's or newsletter's picture that never shows the browser's broken-image icon: no address, an address
 * we would not load, or one that fails to load all show the name's first letter instead (SPEC §2).
 */
import { useState } from 'react'
import { initialOf, usableImageUrl } from '@/lib/initial'
import { cn } from '@/lib/utils'

type EntityImageProps = { src: string | null | undefined; name: string; size: number; className?: string }

export function EntityImage({ src, name, size, className }: EntityImageProps) {
  const url = usableImageUrl(src)
  // Remember which address failed, so a new address (an edited source) gets its own chance.
  const [failed, setFailed] = useState<string | null>(null)
  const frame = cn('shrink-0 rounded-md', className)
  if (!url || failed === url) {
    return (
      <span
        aria-hidden="true"
        data-testid="image-fallback"
        style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }}
        className={cn(frame, 'flex items-center justify-center bg-primary/10 font-semibold text-primary')}
      >
        {initialOf(name)}
      </span>
    )
  }
  return (
    <img
      src={url}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(url)}
      style={{ width: size, height: size }}
      className={cn(frame, 'bg-muted object-cover')}
    />
  )
}
