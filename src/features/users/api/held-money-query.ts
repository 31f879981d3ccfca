/**
 * What a suspended user's suspension holds (admin_held_money): the subscribers of theirs still in screening, the
 * advertisers' holds and the publishers' pending earnings, and how many are past screening (waiting only for the
 * admin's decision: reinstate, and they settle; or refund them).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import { userKeys } from '../keys'

export type HeldMoney = { subscribers: number; onHold: number; pendingEarnings: number; pastScreening: number }

export async function getHeldMoney(userId: string): Promise<HeldMoney> {
  const { data, error } = await supabase.rpc('admin_held_money', { p_user_id: userId }, { get: true })
  if (error) throw error
  const row = data?.[0]
  return {
    subscribers: row?.subscribers ?? 0,
    onHold: toCredits(row?.on_hold ?? 0),
    pendingEarnings: toCredits(row?.pending_earnings ?? 0),
    pastScreening: row?.past_screening ?? 0,
  }
}

export const heldMoneyQueryOptions = (userId: string) =>
  queryOptions({ queryKey: [...userKeys.one(userId), 'held-money'], queryFn: () => getHeldMoney(userId) })

export const useHeldMoneyQuery = (userId: string, { enabled = true } = {}) =>
  useQuery({ ...heldMoneyQueryOptions(userId), enabled })
