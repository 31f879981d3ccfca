/** Marketplace totals for the admin, aggregated by the database over every row (admin_marketplace_totals). */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { walletKeys } from '../keys'
import { toCredits } from '@/lib/format'

export type MarketplaceTotals = {
  wallets: number
  balance: number
  held: number
  reserved: number
  pendingEarnings: number
  spend: number
  earnings: number
  platformFees: number
  openPayouts: number
  openPayoutCount: number
  paidOut: number
  openDisputes: number
}

export async function getMarketplaceTotals(): Promise<MarketplaceTotals> {
  const { data, error } = await supabase.rpc('admin_marketplace_totals', undefined, { get: true }).single()
  if (error) throw error
  return {
    wallets: Number(data.wallets),
    balance: toCredits(data.balance),
    held: toCredits(data.on_hold),
    reserved: toCredits(data.reserved),
    pendingEarnings: toCredits(data.pending_earnings),
    spend: toCredits(data.spend),
    earnings: toCredits(data.earnings),
    platformFees: toCredits(data.platform_fees),
    openPayouts: toCredits(data.open_payouts),
    openPayoutCount: Number(data.open_payout_count),
    paidOut: toCredits(data.paid_out),
    openDisputes: Number(data.open_disputes),
  }
}

export const marketplaceTotalsQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.marketplaceTotals(), queryFn: getMarketplaceTotals })

export const useMarketplaceTotalsQuery = () => useQuery(marketplaceTotalsQueryOptions())
