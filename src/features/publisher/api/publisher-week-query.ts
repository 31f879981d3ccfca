/**
 * This week at a glance: counted clicks on the publisher's sources (a HEAD count) and confirmed subscribers
 * they brought. Publishers cannot read subscriptions, so the subscribers are counted from the ledger: each
 * counted confirmation writes exactly one earning row.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'

export function startOfWeek(now = new Date()): Date {
  const start = new Date(now)
  start.setHours(0, 0, 0, 0)
  start.setDate(start.getDate() - ((start.getDay() + 6) % 7)) // Monday
  return start
}

export async function getPublisherWeek(userId: string, sourceIds: readonly string[], now = new Date()) {
  const since = startOfWeek(now).toISOString()
  const clicks = sourceIds.length
    ? await supabase
        .from('link_clicks')
        .select('id', { count: 'exact', head: true })
        .in('audience_source_id', [...sourceIds])
        .eq('counted', true)
        .gte('created_at', since)
    : { count: 0, error: null }
  if (clicks.error) throw new Error(clicks.error.message)
  const subscribers = await supabase
    .from('wallet_transactions')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', userId)
    .eq('type', 'earning')
    .in('status', ['pending', 'completed'])
    .gte('created_at', since)
  if (subscribers.error) throw new Error(subscribers.error.message)
  return { clicks: clicks.count ?? 0, subscribers: subscribers.count ?? 0 }
}

export const publisherWeekQueryOptions = (userId: string, sourceIds: readonly string[]) =>
  queryOptions({ queryKey: publisherKeys.week(userId, sourceIds), queryFn: () => getPublisherWeek(userId, sourceIds) })

export const usePublisherWeekQuery = (userId: string, sourceIds: readonly string[], enabled = true) =>
  useQuery({ ...publisherWeekQueryOptions(userId, sourceIds), enabled })
