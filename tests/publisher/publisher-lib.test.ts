import { describe, expect, it } from 'vitest'
import { breakdownBySource } from '@/features/publisher/lib/click-breakdown'
import { statsByCampaign, statsBySource, type StatsRow } from '@/features/publisher/lib/stats'
import { campaignLinkUrl, magicLinkUrl } from '@/features/publisher/lib/source-status'

const row = (overrides: Partial<StatsRow>): StatsRow => ({
  campaign_id: 'c1',
  audience_source_id: 's1',
  total_views: 10,
  total_clicks: 4,
  total_conversions: 1,
  total_earnings: 1.6,
  campaign: { name: 'Morning Brew' },
  source: { name: 'Pat on X' },
  ...overrides,
})

describe('publisher stats (SPEC §9 defaults)', () => {
  it('names unreadable campaigns and sources Unknown Campaign / Unknown Source and counts missing numbers as 0', () => {
    const rows = [row({ campaign: null, source: null, total_views: null, total_clicks: null, total_conversions: null })]
    expect(statsByCampaign(rows)[0]).toMatchObject({ name: 'Unknown Campaign', views: 0, clicks: 0, conversions: 0, ctr: 0 })
    expect(statsBySource(rows)[0]).toMatchObject({ name: 'Unknown Source', views: 0, clicks: 0, conversions: 0, ctr: 0 })
  })

  it('adds up per source and per campaign, with CTR as conversions per 100 clicks', () => {
    const rows = [row({}), row({ campaign_id: 'c2', campaign: { name: 'Dev Digest' }, total_clicks: 2, total_conversions: 1 })]
    expect(statsBySource(rows)).toEqual([
      { id: 's1', name: 'Pat on X', views: 20, clicks: 6, conversions: 2, earnings: 3.2, ctr: 33.33 },
    ])
    expect(statsByCampaign(rows).map((l) => [l.name, l.ctr])).toEqual([
      ['Morning Brew', 25],
      ['Dev Digest', 50],
    ])
  })
})

describe('click breakdown', () => {
  it('counts counted and not-counted clicks per source by reason', () => {
    const result = breakdownBySource([
      { audience_source_id: 's1', counted: true, not_counted_reason: null },
      { audience_source_id: 's1', counted: false, not_counted_reason: 'duplicate_visitor' },
      { audience_source_id: 's1', counted: false, not_counted_reason: 'duplicate_visitor' },
      { audience_source_id: 's2', counted: false, not_counted_reason: 'bot_user_agent' },
    ])
    expect(result.get('s1')).toEqual({ counted: 1, notCounted: 2, byReason: { duplicate_visitor: 2 } })
    expect(result.get('s2')).toEqual({ counted: 0, notCounted: 1, byReason: { bot_user_agent: 1 } })
  })
})

describe('share links', () => {
  it('builds the magic link and the per-newsletter campaign link', () => {
    expect(magicLinkUrl('https://growletter.app', 'demo-approved')).toBe('https://growletter.app/earn/demo-approved')
    expect(campaignLinkUrl('https://growletter.app', 'demo-approved', 'c1')).toBe('https://growletter.app/campaign/demo-approved/c1')
  })
})
