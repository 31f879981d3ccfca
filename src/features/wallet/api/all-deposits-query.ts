/** Every deposit of the marketplace with its Stripe reference (checkout session), 20 a page, newest first. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { walletKeys } from '../keys'

export const ADMIN_DEPOSITS_PAGE_SIZE = 20

export async function getAllDeposits(page: number) {
  const from = page * ADMIN_DEPOSITS_PAGE_SIZE
  const { data, error, count } = await supabase
    .from('deposits')
    .select(
      'id, amount, status, stripe_session_id, stripe_payment_intent, failure_reason, created_at, completed_at, user:profiles(full_name)',
      {
        count: 'exact',
      },
    )
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + ADMIN_DEPOSITS_PAGE_SIZE - 1)
  if (error) throw error
  return { rows: data ?? [], total: count ?? 0 }
}

export type AdminDeposit = Awaited<ReturnType<typeof getAllDeposits>>['rows'][number]

export const allDepositsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: walletKeys.allDeposits(page),
    queryFn: () => getAllDeposits(page),
    placeholderData: keepPreviousData,
  })

export const useAllDepositsQuery = (page: number) => useQuery(allDepositsQueryOptions(page))
