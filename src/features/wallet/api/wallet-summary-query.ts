/**
 * The signed-in advertiser's money as the database splits it (`advertiser_balance()`, what subscribe and confirm
 * check): available, reserved (pending subscribers' locked price), on hold (screening) and the balance, where
 * available + reserved + on hold = balance. A user without a wallet yet has zero everywhere.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { walletKeys } from '../keys'
import { toCredits } from '@/lib/format'

export type WalletSummary = { available: number; reserved: number; onHold: number; balance: number }

export async function getWalletSummary(): Promise<WalletSummary> {
  const { data, error } = await supabase.rpc('advertiser_balance', undefined, { get: true }).single()
  if (error) throw error
  return {
    available: toCredits(data?.available),
    reserved: toCredits(data?.reserved),
    onHold: toCredits(data?.on_hold),
    balance: toCredits(data?.balance),
  }
}

export const walletSummaryQueryOptions = (userId: string) =>
  queryOptions({ queryKey: walletKeys.summary(userId), queryFn: () => getWalletSummary() })

export const useWalletSummaryQuery = (userId: string) => useQuery(walletSummaryQueryOptions(userId))
