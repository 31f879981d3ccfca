/**
 * The part of the vocabulary the public pages need — categories, platforms, source statuses — and the helpers every
 * word table uses. Its own module so that a visitor's JavaScript carries these words and not the dashboards' (money,
 * payouts, deliveries, audit); lib/vocabulary.ts re-exports all of it, so every word keeps one label in one place.
 */
import { Constants, type Database } from '@/types/database.types'

type Enums = Database['public']['Enums']
export type Category = Enums['category']
export type SourcePlatform = Enums['source_platform']
export type SourceStatus = Enums['source_status']
export type NewsletterFrequency = Enums['newsletter_frequency']

/** Badge colours (SPEC §2): green good or running, yellow waiting, red refused, grey anything else. */
export type Tone = 'green' | 'yellow' | 'red' | 'grey'
export type Word = { label: string; tone: Tone }

const values = Constants.public.Enums
export const CATEGORIES: readonly Category[] = values.category
export const SOURCE_PLATFORMS: readonly SourcePlatform[] = values.source_platform
export const PUBLIC_SOURCE_STATUSES = ['approved', 'verified', 'live'] as const satisfies readonly SourceStatus[]

export const categoryLabels: Record<Category, string> = {
  business: 'Business',
  culture: 'Culture',
  design: 'Design',
  education: 'Education',
  entertainment: 'Entertainment',
  finance: 'Finance',
  food: 'Food',
  health: 'Health',
  lifestyle: 'Lifestyle',
  marketing: 'Marketing',
  news: 'News',
  productivity: 'Productivity',
  science: 'Science',
  sports: 'Sports',
  technology: 'Technology',
  travel: 'Travel',
  other: 'Other',
}

export const platformLabels: Record<SourcePlatform, string> = {
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

const sourceStatuses: Record<SourceStatus, Word> = {
  approved: { label: 'Approved', tone: 'green' },
  verified: { label: 'Verified', tone: 'green' },
  live: { label: 'Live', tone: 'green' },
  pending: { label: 'Pending', tone: 'yellow' },
  pending_review: { label: 'Waiting for review', tone: 'yellow' },
  under_review: { label: 'Under review', tone: 'yellow' },
  rejected: { label: 'Rejected', tone: 'red' },
  banned: { label: 'Banned', tone: 'red' },
  archived: { label: 'Archived', tone: 'grey' },
}

/** A word the database added after this build, or a legacy one: shown readably rather than as a code. */
export function humanise(value: string): string {
  const words = value.trim().replace(/_/g, ' ')
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : words
}

export const lookup = <K extends string, V>(table: Record<K, V>, value: string | null | undefined): V | undefined =>
  value != null && Object.hasOwn(table, value) ? table[value as K] : undefined

export const word = (table: Record<string, Word>, value: string): Word =>
  lookup(table, value) ?? { label: humanise(value), tone: 'grey' }

/** Category slug → label; none reads 'Other' (SPEC §2); a legacy free-text word is capitalised. */
export function categoryLabel(category: string | null | undefined): string {
  const key = category?.trim().toLowerCase() ?? ''
  if (!key) return 'Other'
  return lookup(categoryLabels, key) ?? humanise(category!.trim())
}

/** twitter or x → X (SPEC §2); known platforms by their own spelling (YouTube, TikTok, LinkedIn). */
export function platformLabel(platform: string | null | undefined): string {
  const key = platform?.trim().toLowerCase() ?? ''
  if (!key) return 'Other'
  if (key === 'twitter') return 'X'
  return lookup(platformLabels, key) ?? humanise(key)
}

export const sourceStatus = (status: string) => word(sourceStatuses, status)

/** The public directory's badge (SPEC §2): approved or verified reads 'Verified', live reads 'Live'. */
export function publicSourceStatus(status: string): Word {
  const own = sourceStatus(status)
  return status === 'approved' ? { ...own, label: 'Verified' } : own
}

export const isPublicSourceStatus = (status: string) => (PUBLIC_SOURCE_STATUSES as readonly string[]).includes(status)

export const isCategory = (value: string): value is Category => Object.hasOwn(categoryLabels, value)
export const isSourcePlatform = (value: string): value is SourcePlatform => Object.hasOwn(platformLabels, value)

/** Options for a select, in the database's order. */
export const categoryOptions = CATEGORIES.map((value) => ({ value, label: categoryLabels[value] }))
export const platformOptions = SOURCE_PLATFORMS.map((value) => ({ value, label: platformLabels[value] }))

/** How often a newsletter goes out (campaigns.frequency), on the newsletter form and its landing page. */
const newsletterFrequencies: Record<NewsletterFrequency, string> = {
  daily: 'Daily',
  several_a_week: 'Several times a week',
  weekly: 'Weekly',
  every_two_weeks: 'Every two weeks',
  monthly: 'Monthly',
}
export const NEWSLETTER_FREQUENCIES: readonly NewsletterFrequency[] = values.newsletter_frequency
export const frequencyLabel = (frequency: string) => lookup(newsletterFrequencies, frequency) ?? humanise(frequency)
export const isFrequency = (value: string): value is NewsletterFrequency => Object.hasOwn(newsletterFrequencies, value)
export const frequencyOptions = NEWSLETTER_FREQUENCIES.map((value) => ({ value, label: newsletterFrequencies[value] }))
