/**
 * One user's page for admins: the profile with suspension (admin_user), their money from the same balance
 * functions they see themselves (admin_advertiser_balance / admin_publisher_balance), sessions, sources and
 * newsletters. Read together: the page is one state, loading or failed as a whole.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toCredits } from '@/lib/format'
import { userKeys } from '../keys'

async function rpcRows<T>(call: PromiseLike<{ data: T[] | null; error: Error | null }>): Promise<T[]> {
  const { data, error } = await call
  if (error) throw error
  return data ?? []
}

export async function getAdminUserPage(userId: string) {
  const [profile, spend, earnings, sessions, sources, campaigns] = await Promise.all([
    rpcRows(supabase.rpc('admin_user', { p_user_id: userId }, { get: true })),
    rpcRows(supabase.rpc('admin_advertiser_balance', { p_user_id: userId }, { get: true })),
    rpcRows(supabase.rpc('admin_publisher_balance', { p_user_id: userId }, { get: true })),
    rpcRows(supabase.rpc('admin_user_sessions', { p_user_id: userId }, { get: true })),
    rpcRows(
      supabase
        .from('audience_sources')
        .select('id, name, status, created_at')
        .eq('publisher_id', userId)
        .order('created_at', { ascending: false }),
    ),
    rpcRows(
      supabase
        .from('campaigns')
        .select('id, name, status, created_at')
        .eq('advertiser_id', userId)
        .order('created_at', { ascending: false }),
    ),
  ])
  const user = profile[0]
  if (!user) throw new Error('User not found')
  const a = spend[0]
  const p = earnings[0]
  return {
    user,
    advertiserMoney: {
      available: toCredits(a?.available ?? 0),
      reserved: toCredits(a?.reserved ?? 0),
      onHold: toCredits(a?.on_hold ?? 0),
      balance: toCredits(a?.balance ?? 0),
    },
    publisherMoney: {
      pending: toCredits(p?.pending ?? 0),
      available: toCredits(p?.available ?? 0),
      requested: toCredits(p?.requested ?? 0),
      paid: toCredits(p?.paid ?? 0),
    },
    sessions,
    sources,
    campaigns,
  }
}

export type AdminUserPage = Awaited<ReturnType<typeof getAdminUserPage>>

export const adminUserQueryOptions = (userId: string) =>
  queryOptions({ queryKey: userKeys.one(userId), queryFn: () => getAdminUserPage(userId) })

export const useAdminUserQuery = (userId: string) => useQuery(adminUserQueryOptions(userId))
