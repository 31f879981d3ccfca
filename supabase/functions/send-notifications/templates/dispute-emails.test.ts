// The emails of a dispute's process and of a suspension (issue 37, supabase/functions/send-notifications/templates):
// the publisher learns which newsletter, how many readers, the earnings at stake, the reason and the deadline, with a
// link to the dispute's page; each side's decision email leads to its own dispute page; a suspended user reads the
// reason and the way to appeal (the contact form, prefilled), and is told when the account is active again.
import { describe, expect, it } from 'vitest'
import { renderNotification } from './render'
import { utcDateTime } from './notification-email'

const SITE = 'https://growletter.example'
const to = { email: 'pat@example.com', name: 'Pat' }

describe('dispute emails', () => {
  it('tells the publisher what is disputed, what is at stake and until when to answer', () => {
    const email = renderNotification(
      'dispute_opened',
      to,
      {
        dispute_id: 'd-1',
        kind: 'subscribers',
        source_name: "Pat's Product Notes",
        campaign_name: 'Design Dispatch',
        reason: 'Never opened a single email',
        readers: 2,
        earnings: 4.8,
        answer_due_at: '2026-12-01T14:05:00Z',
      },
      SITE,
    )
    expect(email.subject).toBe("A dispute about Pat's Product Notes: answer by Dec 1, 2026, 2:05 PM UTC")
    expect(email.text).toContain(
      "An advertiser disputes 2 readers your source Pat's Product Notes brought to Design Dispatch. 2 readers: 4.80 credits of your pending earnings are at stake, held until an admin decides.",
    )
    expect(email.text).toContain("The advertiser's reason: “Never opened a single email”")
    expect(email.text).toContain('until Dec 1, 2026, 2:05 PM UTC')
    expect(email.text).toContain(`See the dispute and answer: ${SITE}/dashboard/publisher/disputes/d-1`)
    expect(email.html).toContain(`${SITE}/dashboard/publisher/disputes/d-1`)
  })

  it('sends each side of a decision to its own dispute page', () => {
    const data = {
      decision: 'rejected',
      note: 'Real readers',
      refunded: 0,
      subscribers: 0,
      campaign_name: 'Design Dispatch',
      source_name: 'Pat',
      dispute_id: 'd-1',
    }
    expect(renderNotification('dispute_decided', to, { ...data, side: 'publisher' }, SITE).text).toContain(
      `See the dispute: ${SITE}/dashboard/publisher/disputes/d-1`,
    )
    expect(renderNotification('dispute_decided', to, { ...data, side: 'advertiser' }, SITE).text).toContain(
      `See your disputes: ${SITE}/dashboard/advertiser/disputes`,
    )
  })

  it('words moments in UTC the way the database does', () => {
    expect(utcDateTime('2026-12-01T00:30:00Z')).toBe('Dec 1, 2026, 12:30 AM UTC')
    expect(utcDateTime('2026-07-15T12:00:00Z')).toBe('Jul 15, 2026, 12:00 PM UTC')
    expect(utcDateTime(null)).toBe('')
  })
})

describe('suspension emails', () => {
  it('gives the reason and the prefilled contact form to appeal', () => {
    const email = renderNotification('account_suspended', to, { status: 'suspended', reason: 'Bought clicks' }, SITE)
    expect(email.subject).toBe('Your Growletter account is suspended')
    expect(email.text).toContain('The reason: “Bought clicks”')
    expect(email.text).toContain(
      `Appeal the suspension: ${SITE}/contact?subject=Appeal%20my%20account%20suspension&email=pat%40example.com`,
    )
  })

  it('says when the account is active again', () => {
    const email = renderNotification('account_suspended', to, { status: 'reinstated', reason: 'Appeal accepted' }, SITE)
    expect(email.subject).toBe('Your Growletter account is active again')
    expect(email.text).toContain("The admin's note: “Appeal accepted”")
  })
})
