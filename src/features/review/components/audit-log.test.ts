// The audit log's change column: statuses in the words of their own screens, and never "Rejected → Rejected".
import { describe, expect, it } from 'vitest'
import { auditChange } from '@/features/review/components/audit-log'

describe('auditChange', () => {
  it('names both statuses in plain words', () => {
    expect(auditChange({ subject_type: 'campaign', old_status: 'pending_review', new_status: 'active' })).toBe(
      'Pending review → Active',
    )
    expect(auditChange({ subject_type: 'audience_source', old_status: 'pending_review', new_status: 'rejected' })).toBe(
      'Waiting for review → Rejected',
    )
    expect(auditChange({ subject_type: 'profile', old_status: 'active', new_status: 'suspended' })).toBe(
      'Active → Suspended',
    )
    expect(auditChange({ subject_type: 'profile', old_status: 'advertiser', new_status: 'publisher' })).toBe(
      'Advertiser → Influencer',
    )
  })

  it('says "again" when a decision kept the status, and the new status alone when there was none', () => {
    expect(auditChange({ subject_type: 'campaign', old_status: 'rejected', new_status: 'rejected' })).toBe(
      'Rejected again',
    )
    expect(auditChange({ subject_type: 'dispute', old_status: null as unknown as string, new_status: 'upheld' })).toBe(
      'Upheld',
    )
  })
})
