/**
 * The signed-in user's wallet as screens show it (the `wallets` view): balance, what is on hold during
 * screening, and what is still spendable. A user without a wallet row yet has zero everywhere.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { walletKeys } from '../keys'
import { toCredits } from '@/lib/format'

export type WalletSummary = { balance: number; held: number; available: number }

export async function getWalletSummary(userId: string): Promise<WalletSummary> {
  const { data, error } = await supabase
    .from('wallets')
    .select('balance, held, available')
    .eq('user_id', userId)
    .maybeSingle()
  if (error) throw error
  return { balance: toCredits(data?.balance), held: toCredits(data?.held), available: toCredits(data?.available) }
}

export const walletSummaryQueryOptions = (userId: string) =>
  queryOptions({ queryKey: walletKeys.summary(userId), queryFn: () => getWalletSummary(userId) })

export const useWalletSummaryQuery = (userId: string) => useQuery(walletSummaryQueryOptions(userId))
