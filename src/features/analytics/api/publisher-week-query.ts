/** This week at a glance (Monday to today, UTC): counted clicks on the publisher's sources, the subscribers who confirmed and those paid for, totalled by the database (`source_totals`). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { utcDay } from '@/lib/date-range'
import { analyticsKeys } from '../keys'

export function startOfWeek(now = new Date()): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7)) // Monday
  return start
}

export async function getPublisherWeek(now = new Date()) {
  const { data, error } = await supabase
    .rpc('source_totals', { p_from: utcDay(startOfWeek(now)), p_to: utcDay(now) }, { get: true })
    .single()
  if (error) throw new Error(error.message)
  return {
    clicks: Number(data.counted_clicks),
    confirmed: Number(data.confirmations),
    subscribers: Number(data.conversions),
    updatedAt: data.updated_at ?? null,
  }
}

export const publisherWeekQueryOptions = (userId: string) =>
  queryOptions({ queryKey: analyticsKeys.publisherWeek(userId), queryFn: () => getPublisherWeek() })

export const usePublisherWeekQuery = (userId: string) => useQuery(publisherWeekQueryOptions(userId))
