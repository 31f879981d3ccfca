/**
 * The signed-in advertiser's deposits in flight: pending checkout sessions that can still be paid, and the
 * one the advertiser just came back from (`watch`, the `session_id` of the payment return) whatever its
 * status. While that one is pending the query polls, so the wallet shows it completed as soon as the
 * payments webhook lands — without a reload — and stops polling after two minutes.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { Tables } from '@/types/database.types'
import { walletKeys } from '../keys'

export type Deposit = Pick<
  Tables<'deposits'>,
  'id' | 'amount' | 'status' | 'stripe_session_id' | 'expires_at' | 'created_at'
>
export type DepositsVariables = { userId: string; watch?: string }

export const DEPOSIT_POLL_MS = 1_500
export const DEPOSIT_POLL_LIMIT_MS = 120_000

// A session id comes from the URL: only Stripe's own shape goes into the filter.
const SESSION_ID = /^cs_[A-Za-z0-9_]+$/

export async function getDeposits({ userId, watch }: DepositsVariables): Promise<Deposit[]> {
  const watched = watch && SESSION_ID.test(watch) ? watch : undefined
  const { data, error } = await supabase
    .from('deposits')
    .select('id, amount, status, stripe_session_id, expires_at, created_at')
    .eq('user_id', userId)
    .or(watched ? `status.eq.pending,stripe_session_id.eq.${watched}` : 'status.eq.pending')
    .order('created_at', { ascending: false })
    .limit(10)
  if (error) throw error
  const now = Date.now()
  // A checkout past its expiry cannot be paid any more, whether or not its expiry event has arrived.
  return (data ?? []).filter(
    (d) => d.stripe_session_id === watched || !d.expires_at || new Date(d.expires_at).getTime() > now,
  )
}

export const watchedDeposit = (deposits: Deposit[] | undefined, watch: string | undefined) =>
  watch ? deposits?.find((d) => d.stripe_session_id === watch) : undefined

export const depositsQueryOptions = (vars: DepositsVariables, startedAt = Date.now()) =>
  queryOptions({
    queryKey: walletKeys.deposits(vars.userId, vars.watch ?? null),
    queryFn: () => getDeposits(vars),
    refetchInterval: (query) => {
      if (!vars.watch || Date.now() - startedAt > DEPOSIT_POLL_LIMIT_MS) return false
      const deposit = watchedDeposit(query.state.data, vars.watch)
      return !deposit || deposit.status === 'pending' ? DEPOSIT_POLL_MS : false
    },
  })

export const useDepositsQuery = (vars: DepositsVariables, startedAt?: number) =>
  useQuery(depositsQueryOptions(vars, startedAt))
