import { describe, expect, it } from 'vitest'
import { breakdownBySource } from '@/features/audiences/lib/click-breakdown'
import { campaignLinkUrl, magicLinkUrl } from '@/features/audiences/lib/source-status'

describe('click breakdown', () => {
  it("sets the database's totals per source side by side, reasons under their label, subscriptions left out", () => {
    const result = breakdownBySource(
      [
        { source_id: 's1', counted_clicks: '1', not_counted_clicks: '2' },
        { source_id: 's2', counted_clicks: 0, not_counted_clicks: 1 },
      ],
      [
        { source_id: 's1', kind: 'click', label: 'Same visitor within 1 hour', total: '2' },
        { source_id: 's1', kind: 'subscription', label: 'Confirmed within 2 seconds', total: 1 },
        { source_id: 's2', kind: 'click', label: 'Bot or crawler', total: 1 },
      ],
    )
    expect(result.get('s1')).toEqual({ counted: 1, notCounted: 2, byReason: { 'Same visitor within 1 hour': 2 } })
    expect(result.get('s2')).toEqual({ counted: 0, notCounted: 1, byReason: { 'Bot or crawler': 1 } })
  })
})

describe('share links', () => {
  it('builds the magic link and the per-newsletter campaign link', () => {
    expect(magicLinkUrl('https://growletter.app', 'demo-approved')).toBe('https://growletter.app/earn/demo-approved')
    expect(campaignLinkUrl('https://growletter.app', 'demo-approved', 'c1')).toBe(
      'https://growletter.app/campaign/demo-approved/c1',
    )
  })
})
