/** How a directory card presents a source (SPEC §2 `/audiences`). Pure rules, tested on their own. */
import type { BadgeProps } from './badge-props'

export const PUBLIC_SOURCE_STATUSES = ['approved', 'verified', 'live'] as const

/** approved or verified reads 'Verified'; live reads 'Live'; anything else shows its own name. */
export function statusLabel(status: string): string {
  if (status === 'approved' || status === 'verified') return 'Verified'
  if (status === 'live') return 'Live'
  return capitalise(status.replace(/_/g, ' '))
}

export function statusColour(status: string): NonNullable<BadgeProps['variant']> {
  if (status === 'approved' || status === 'verified' || status === 'live') return 'green'
  if (status === 'pending' || status === 'pending_review' || status === 'under_review') return 'yellow'
  if (status === 'rejected' || status === 'banned') return 'red'
  return 'grey'
}

export function capitalise(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value
}

export function categoryLabel(category: string | null | undefined): string {
  const trimmed = category?.trim()
  return trimmed ? capitalise(trimmed) : 'Other'
}

const PLATFORM_LABELS: Record<string, string> = {
  twitter: 'X',
  x: 'X',
  newsletter: 'Newsletter',
  product: 'Product',
  youtube: 'YouTube',
  website: 'Website',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  linkedin: 'LinkedIn',
  podcast: 'Podcast',
  other: 'Other',
}

/** twitter or x → X; known platforms by their own names; anything else capitalised. */
export function platformLabel(platform: string | null | undefined): string {
  const key = platform?.trim().toLowerCase() ?? ''
  if (!key) return 'Other'
  return PLATFORM_LABELS[key] ?? capitalise(key)
}

/** 'Visit Page' links out only to an http(s) address: the url first, else a description that is one. */
export function visitHref(url: string | null | undefined, description: string | null | undefined): string | null {
  for (const candidate of [url, description]) {
    const value = candidate?.trim() ?? ''
    if (/^https?:\/\//i.test(value)) return value
  }
  return null
}

export function initial(name: string): string {
  return (name.trim().charAt(0) || '?').toUpperCase()
}
