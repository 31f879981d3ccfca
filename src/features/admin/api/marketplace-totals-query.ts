/**
 * Marketplace totals for the admin: credits in wallets, on hold, pending publisher earnings, advertiser
 * spend, publisher earnings and the platform's share, open payouts. Summed here from the rows admins may
 * read, up to TOTALS_ROW_CAP each (`capped` says when a figure stopped there); a database aggregate
 * function would make this exact at any size.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { adminKeys } from '../keys'
import { toCredits } from '@/lib/format'

export const TOTALS_ROW_CAP = 10_000

export type MarketplaceTotals = {
  wallets: number
  balance: number
  held: number
  pendingEarnings: number
  spend: number
  earnings: number
  platformFees: number
  openPayouts: number
  openPayoutCount: number
  capped: boolean
}

const sum = <T,>(rows: T[], pick: (row: T) => number | string | null) => rows.reduce((acc, row) => acc + toCredits(pick(row)), 0)

export async function getMarketplaceTotals(): Promise<MarketplaceTotals> {
  const [wallets, stats, payouts] = await Promise.all([
    supabase.from('wallets').select('balance, held, pending_earnings').limit(TOTALS_ROW_CAP),
    supabase.from('campaign_source_stats').select('total_spend, total_earnings').limit(TOTALS_ROW_CAP),
    supabase.from('payout_requests').select('amount').eq('status', 'requested').limit(TOTALS_ROW_CAP),
  ])
  if (wallets.error) throw wallets.error
  if (stats.error) throw stats.error
  if (payouts.error) throw payouts.error
  const w = wallets.data ?? []
  const s = stats.data ?? []
  const p = payouts.data ?? []
  const spend = sum(s, (r) => r.total_spend)
  const earnings = sum(s, (r) => r.total_earnings)
  return {
    wallets: w.length,
    balance: sum(w, (r) => r.balance),
    held: sum(w, (r) => r.held),
    pendingEarnings: sum(w, (r) => r.pending_earnings),
    spend,
    earnings,
    platformFees: spend - earnings,
    openPayouts: sum(p, (r) => r.amount),
    openPayoutCount: p.length,
    capped: [w, s, p].some((rows) => rows.length >= TOTALS_ROW_CAP),
  }
}

export const marketplaceTotalsQueryOptions = () => queryOptions({ queryKey: adminKeys.totals(), queryFn: getMarketplaceTotals })

export const useMarketplaceTotalsQuery = () => useQuery(marketplaceTotalsQueryOptions())
