/**
 * The signed-in publisher's earnings from the database (`publisher_balance()`): pending (in screening),
 * available (settled − paid − requested: exactly what request_payout accepts), requested and paid.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { payoutKeys } from '../keys'

export type Earnings = { pending: number; available: number; requested: number; paid: number }

export async function getPublisherEarnings(): Promise<Earnings> {
  const { data, error } = await supabase.rpc('publisher_balance', undefined, { get: true }).single()
  if (error) throw new Error(error.message)
  return {
    pending: Number(data.pending),
    available: Number(data.available),
    requested: Number(data.requested),
    paid: Number(data.paid),
  }
}

export const publisherEarningsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: payoutKeys.earnings(userId), queryFn: getPublisherEarnings })

export const usePublisherEarningsQuery = (userId: string) => useQuery(publisherEarningsQueryOptions(userId))
