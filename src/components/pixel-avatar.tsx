/**
 * A pixel-art avatar drawn in the browser from an email address (SPEC §2): the same email always gives the
 * same picture, nothing is fetched. A 5×5 grid mirrored left to right, one colour from the hash.
 * With no usable email the first letter is shown instead.
 */
import { cn } from '@/lib/utils'

export const PIXEL_GRID_SIZE = 5

/** FNV-1a: a small, stable 32-bit hash; good enough to spread emails over patterns and colours. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < value.length; index += 1) {
    hash ^= value.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

export type PixelAvatarPattern = { color: string; background: string; cells: boolean[] }

/** The avatar's cells (row by row) and colours; null when there is nothing to seed it with. */
export function pixelAvatarPattern(email: string | null | undefined): PixelAvatarPattern | null {
  const seed = email?.trim().toLowerCase()
  if (!seed) return null
  let state = hashString(seed) || 1
  // xorshift32: a deterministic stream of bits from the hash.
  const next = () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
  const hue = hashString(`${seed}#hue`) % 360
  const half = Math.ceil(PIXEL_GRID_SIZE / 2)
  const cells: boolean[] = []
  for (let row = 0; row < PIXEL_GRID_SIZE; row += 1) {
    const left = Array.from({ length: half }, () => next() % 2 === 0)
    const mirrored = [...left, ...left.slice(0, PIXEL_GRID_SIZE - half).reverse()]
    cells.push(...mirrored)
  }
  return { color: `hsl(${hue} 60% 42%)`, background: `hsl(${hue} 60% 94%)`, cells }
}

export function firstLetter(email: string | null | undefined) {
  return email?.trim().charAt(0).toUpperCase() || '?'
}

type UserAvatarProps = { email: string | null | undefined; imageUrl?: string | null; className?: string }

/** The signed-in user's picture: their own image if they set one, else the pixel avatar, else the letter. */
export function UserAvatar({ email, imageUrl, className }: UserAvatarProps) {
  const frame = cn('inline-flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full', className)
  if (imageUrl) return <img src={imageUrl} alt="" className={cn(frame, 'object-cover')} />
  const pattern = pixelAvatarPattern(email)
  if (!pattern) {
    return (
      <span aria-hidden="true" className={cn(frame, 'bg-primary font-semibold text-primary-foreground')}>
        {firstLetter(email)}
      </span>
    )
  }
  return (
    <span aria-hidden="true" className={frame} style={{ background: pattern.background }} data-testid="pixel-avatar">
      <svg
        viewBox={`-1 -1 ${PIXEL_GRID_SIZE + 2} ${PIXEL_GRID_SIZE + 2}`}
        className="size-full"
        shapeRendering="crispEdges"
      >
        {pattern.cells.map((on, index) =>
          on ? (
            <rect
              key={index}
              x={index % PIXEL_GRID_SIZE}
              y={Math.floor(index / PIXEL_GRID_SIZE)}
              width="1"
              height="1"
              fill={pattern.color}
            />
          ) : null,
        )}
      </svg>
    </span>
  )
}
