/**
 * Pricing guidance beside a price field: what a publisher earns per subscriber at this price (the platform fee's
 * one TypeScript statement, `@rules/commission`), and how the price places the newsletter among publishers' offers.
 */
import { PLATFORM_FEE_RATE, publisherEarning } from '@rules/commission'
import { formatCredits } from '@/lib/format'

export function PriceGuidance({ price }: { price: number }) {
  const valid = Number.isFinite(price) && price > 0
  return (
    <p className="text-sm text-muted-foreground" data-testid="price-guidance">
      {valid
        ? `At ${formatCredits(price)} a publisher earns ${formatCredits(publisherEarning(price))} per confirmed subscriber (after the ${Math.round(PLATFORM_FEE_RATE * 100)}% platform fee). `
        : ''}
      Publishers see newsletters that can pay ordered by price, highest first: a higher price gets yours shared sooner.
    </p>
  )
}
