/** The publisher's ledger rows, summed into pending, available and paid earnings. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { publisherKeys } from '../keys'
import { summariseEarnings } from '../lib/earnings'

export async function getPublisherEarnings(userId: string) {
  const { data, error } = await supabase
    .from('wallet_transactions')
    .select('type, status, amount')
    .eq('user_id', userId)
    .in('status', ['pending', 'completed'])
  if (error) throw new Error(error.message)
  return summariseEarnings(data ?? [])
}

export const publisherEarningsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: publisherKeys.earnings(userId), queryFn: () => getPublisherEarnings(userId) })

export const usePublisherEarningsQuery = (userId: string) => useQuery(publisherEarningsQueryOptions(userId))
