import { describe, expect, it } from 'vitest'
import { summariseActivity } from '@/features/analytics/activity'

const now = new Date('2026-11-20T15:00:00Z')

describe('summariseActivity', () => {
  it('buckets counted rows per UTC day, oldest first, keeping empty days', () => {
    const result = summariseActivity({
      clicks: [
        { at: '2026-11-20T01:00:00Z', counted: true, reason: null },
        { at: '2026-11-20T23:00:00Z', counted: true, reason: null },
        { at: '2026-11-18T10:00:00Z', counted: true, reason: null },
      ],
      subscribers: [{ at: '2026-11-18T11:00:00Z', counted: true, reason: null }],
      days: 3,
      now,
      truncated: false,
    })
    expect(result.days).toEqual([
      { day: '2026-11-18', clicks: 1, subscribers: 1 },
      { day: '2026-11-19', clicks: 0, subscribers: 0 },
      { day: '2026-11-20', clicks: 2, subscribers: 0 },
    ])
  })

  it('totals not-counted rows by reason, largest first, and leaves them out of the daily series', () => {
    const result = summariseActivity({
      clicks: [
        { at: '2026-11-20T01:00:00Z', counted: false, reason: 'bot_user_agent' },
        { at: '2026-11-20T02:00:00Z', counted: false, reason: 'duplicate_visitor' },
        { at: '2026-11-20T03:00:00Z', counted: false, reason: 'duplicate_visitor' },
      ],
      subscribers: [
        { at: '2026-11-20T04:00:00Z', counted: false, reason: 'self_referral' },
        // Unattributed subscribers are free, not "not counted": no reason, no row.
        { at: '2026-11-20T05:00:00Z', counted: false, reason: null },
      ],
      days: 1,
      now,
      truncated: false,
    })
    expect(result.days).toEqual([{ day: '2026-11-20', clicks: 0, subscribers: 0 }])
    expect(result.notCounted).toEqual([
      { reason: 'duplicate_visitor', label: 'Same visitor within 1 hour', clicks: 2, subscribers: 0 },
      { reason: 'bot_user_agent', label: 'Bot or crawler', clicks: 1, subscribers: 0 },
      { reason: 'self_referral', label: 'Self-referral', clicks: 0, subscribers: 1 },
    ])
  })
})
