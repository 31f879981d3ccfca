// The emails of a partner program (issue 40, supabase/functions/send-notifications/templates): the advertiser learns
// who applied to which newsletter, with the message and a link to that newsletter's Partners page; the publisher
// learns the decision, with the price its readers pay and what it earns when approved.
import { describe, expect, it } from 'vitest'
import { renderNotification } from './render'

const SITE = 'https://growletter.example'
const to = { email: 'pat@example.com', name: 'Pat' }

describe('partner emails', () => {
  it('tells the advertiser who applied, with the message and the way to decide', () => {
    const email = renderNotification(
      'partner_applied',
      to,
      {
        campaign_id: 'c-1',
        campaign_name: 'Design Dispatch',
        source_name: "Pat's Product Notes",
        platform: 'x',
        message: 'My readers are designers',
      },
      SITE,
    )
    expect(email.subject).toBe("Pat's Product Notes applied to promote Design Dispatch")
    expect(email.text).toContain('Their message: “My readers are designers”')
    expect(email.text).toContain(`${SITE}/dashboard/advertiser/partners?newsletterId=c-1`)
  })

  it('tells the publisher an approval with its own price and earning, a decline and a block', () => {
    const base = { campaign_name: 'Design Dispatch', source_name: "Pat's Product Notes" }
    const approved = renderNotification(
      'partner_decided',
      to,
      { ...base, status: 'approved', price: 12.5, earning: 10, own_price: true },
      SITE,
    )
    expect(approved.subject).toBe("Pat's Product Notes is a partner of Design Dispatch")
    expect(approved.text).toContain('Your own price: 12.50 credits per subscriber; you earn 10.00 credits')
    expect(approved.text).toContain(`${SITE}/dashboard/publisher/offers`)
    const declined = renderNotification('partner_decided', to, { ...base, status: 'declined' }, SITE)
    expect(declined.text).toContain('You can apply again 7 days from now')
    const blocked = renderNotification('partner_decided', to, { ...base, status: 'blocked' }, SITE)
    expect(blocked.subject).toBe("Design Dispatch no longer works with Pat's Product Notes")
    expect(blocked.text).toContain('no longer paid')
  })
})
