/**
 * Why a campaign cannot pay for one more subscriber (PRODUCT "Money": it stops being shown, and the
 * advertiser is told why). Mirrors the check confirm_subscription makes: remaining budget and the
 * advertiser's available balance must each cover the price.
 */
import { formatCredits, toCredits } from '@/lib/format'
import type { MyCampaign } from './api/advertiser-campaigns-query'

export type FundingProblem = { reason: 'budget' | 'balance'; message: string }

export function fundingProblem(
  campaign: Pick<MyCampaign, 'status' | 'price_per_subscriber' | 'budget_total' | 'budget_spent'>,
  availableBalance: number | undefined,
): FundingProblem | null {
  if (campaign.status !== 'active' && campaign.status !== 'paused') return null
  const price = toCredits(campaign.price_per_subscriber)
  const remaining = toCredits(campaign.budget_total) - toCredits(campaign.budget_spent)
  if (remaining < price) {
    return {
      reason: 'budget',
      message: `Not shown to new subscribers: the remaining budget (${formatCredits(remaining)}) is below the price per subscriber (${formatCredits(price)}).`,
    }
  }
  if (availableBalance !== undefined && availableBalance < price) {
    return {
      reason: 'balance',
      message: `Not shown to new subscribers: your available balance (${formatCredits(availableBalance)}) is below the price per subscriber (${formatCredits(price)}).`,
    }
  }
  return null
}
