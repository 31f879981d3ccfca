/**
 * What became of a newsletter the public pages cannot show (`newsletter_availability`): out of budget, paused,
 * closed or not found, so the visitor reads why instead of "Newsletter not found".
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { newsletterKeys } from '../keys'
import { isUuid } from './campaign-types'

export type NewsletterAvailability = 'open' | 'out_of_budget' | 'paused' | 'closed' | 'not_found'
const known: readonly string[] = ['open', 'out_of_budget', 'paused', 'closed', 'not_found']

export async function getNewsletterAvailability(id: string): Promise<NewsletterAvailability> {
  if (!isUuid(id)) return 'not_found'
  const { data, error } = await supabase.rpc('newsletter_availability', { p_campaign_id: id }, { get: true })
  if (error) throw new Error(error.message)
  return typeof data === 'string' && known.includes(data) ? (data as NewsletterAvailability) : 'not_found'
}

export const newsletterAvailabilityQueryOptions = (id: string) =>
  queryOptions({ queryKey: newsletterKeys.availability(id), queryFn: () => getNewsletterAvailability(id) })

export const useNewsletterAvailabilityQuery = (id: string) => useQuery(newsletterAvailabilityQueryOptions(id))
