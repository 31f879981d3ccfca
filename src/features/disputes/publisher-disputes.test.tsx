// The publisher's side of a dispute (issue 37): the list says what waits for an answer and what is at stake, as a
// table on a desk and cards on a phone; a dispute's page shows the advertiser's reason, the readers without their
// emails, and the answer form, whose messages are @rules/dispute's words (nothing is sent until the answer is
// whole); the answer goes to answer_dispute trimmed, links one per line; after the 72 hours there is no form.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DISPUTE_ANSWER_MESSAGES } from '@rules/dispute'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'
import { stubPhoneViewport } from '../../testing/viewport'

const PUBLISHER = { id: '00000000-0000-4000-8000-0000000000b1', email: 'publisher@growletter.test' }
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString()

const dispute = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  kind: 'subscribers',
  status: 'open',
  source_id: 's1',
  source_name: 'Growth Tweets',
  newsletters: 'Morning Brew',
  reason: 'These readers never opened a single email',
  created_at: inHours(-2),
  answer_due_at: inHours(70),
  answer: null,
  answer_links: [],
  answered_at: null,
  can_answer: true,
  readers: 2,
  readers_on_hold: 2,
  earnings_at_stake: 4,
  decision_note: null,
  decided_at: null,
  refunded_subscribers: 0,
  earnings_cancelled: 0,
  ...over,
})

const readers = [
  {
    subscription_id: 'n1',
    campaign_name: 'Morning Brew',
    confirmed_at: '2026-11-01T10:00:00Z',
    earning: 2,
    state: 'on_hold',
  },
  {
    subscription_id: 'n2',
    campaign_name: 'Morning Brew',
    confirmed_at: '2026-11-01T11:00:00Z',
    earning: 2,
    state: 'on_hold',
  },
]

/** Answers publisher_disputes (all, or one by p_dispute_id) from `rows()`, and records what answer_dispute gets. */
function handlers(rows: () => ReturnType<typeof dispute>[]) {
  const answers: unknown[] = []
  server.use(
    http.get(restUrl('rpc/publisher_disputes'), ({ request }) => {
      const id = new URL(request.url).searchParams.get('p_dispute_id')
      return HttpResponse.json(id ? rows().filter((d) => d.id === id) : rows())
    }),
    http.get(restUrl('rpc/publisher_dispute_readers'), () => HttpResponse.json(readers)),
    http.post(restUrl('rpc/answer_dispute'), async ({ request }) => {
      answers.push(await request.json())
      return HttpResponse.json({ id: 'd1', answered_at: new Date().toISOString() })
    }),
  )
  return answers
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("the publisher's disputes", () => {
  it('lists what waits for an answer, with the earnings at stake, and opens the dispute from the row', async () => {
    signInAs('publisher', PUBLISHER)
    handlers(() => [dispute()])
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/publisher/disputes')
    const row = await screen.findByTestId('publisher-dispute')
    expect(row.tagName).toBe('TR')
    expect(row).toHaveTextContent('Growth Tweets')
    expect(row).toHaveTextContent(/Answer by/)
    expect(row).toHaveTextContent('4.00 credits')
    expect(screen.getByRole('status')).toHaveTextContent('One dispute waits for your answer.')
    await user.click(within(row).getByRole('link', { name: 'Answer the dispute about Growth Tweets' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/publisher/disputes/d1'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Dispute about Growth Tweets' })).toBeInTheDocument()
  })

  it('shows each dispute as a card on a phone', async () => {
    stubPhoneViewport()
    signInAs('publisher', PUBLISHER)
    handlers(() => [
      dispute(),
      dispute({ id: 'd2', status: 'rejected', can_answer: false, decision_note: 'Real readers' }),
    ])
    renderRoute('/dashboard/publisher/disputes')
    const cards = await screen.findAllByTestId('publisher-dispute')
    expect(cards.map((c) => c.tagName)).toEqual(['LI', 'LI'])
    expect(screen.getByRole('list', { name: 'Disputes about your sources' })).toBeInTheDocument()
    expect(within(cards[0]!).getByRole('link', { name: 'Answer the dispute about Growth Tweets' })).toBeVisible()
    expect(within(cards[1]!).getByTestId('dispute-outcome')).toHaveTextContent(
      'Your earnings stand. Admin’s note: Real readers',
    )
  })
})

describe("a dispute's page", () => {
  it('shows the reason, the readers without emails and the money at stake', async () => {
    signInAs('publisher', PUBLISHER)
    handlers(() => [dispute()])
    renderRoute('/dashboard/publisher/disputes/d1')
    expect(await screen.findByTestId('dispute-reason')).toHaveTextContent('These readers never opened a single email')
    expect(screen.getByTestId('dispute-readers-count')).toHaveTextContent('2')
    expect(screen.getByTestId('dispute-earnings-at-stake')).toHaveTextContent('4.00 credits')
    const rows = await screen.findAllByTestId('disputed-reader')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('On hold until the decision')
    expect(document.body).not.toHaveTextContent('@')
  })

  it('answers in the rules’ words, sends nothing until the answer is whole, then sends it trimmed', async () => {
    signInAs('publisher', PUBLISHER)
    let answered = false
    const answers = handlers(() => [
      answered
        ? dispute({
            can_answer: false,
            answer: 'I shared the link in my weekly post.',
            answer_links: ['https://x.com/pat/status/1'],
            answered_at: new Date().toISOString(),
          })
        : dispute(),
    ])
    const user = userEvent.setup()
    renderRoute('/dashboard/publisher/disputes/d1')
    const form = await screen.findByTestId('dispute-answer-form')
    const send = within(form).getByRole('button', { name: 'Send answer' })

    await user.click(send)
    expect(await within(form).findByText(DISPUTE_ANSWER_MESSAGES.tooShort)).toBeInTheDocument()
    // Values pasted (click, then paste), not typed key by key: the test is about what the form accepts.
    await user.click(within(form).getByLabelText('Your answer'))
    await user.paste('  I shared the link in my weekly post.  ')
    await user.click(within(form).getByLabelText(/^Evidence links/))
    await user.paste('http://x.com/pat/status/1')
    await user.click(send)
    expect(await within(form).findByText(DISPUTE_ANSWER_MESSAGES.badLink)).toBeInTheDocument()
    expect(within(form).queryByText(DISPUTE_ANSWER_MESSAGES.tooShort)).not.toBeInTheDocument()
    const links = within(form).getByLabelText(/^Evidence links/)
    await user.clear(links)
    await user.paste([1, 2, 3, 4, 5, 6].map((n) => `https://example.com/${n}`).join('\n'))
    await user.click(send)
    expect(await within(form).findByText(DISPUTE_ANSWER_MESSAGES.tooManyLinks)).toBeInTheDocument()
    expect(answers).toEqual([])

    await user.clear(links)
    await user.paste('https://x.com/pat/status/1\n\nhttps://x.com/pat/status/1')
    answered = true
    await user.click(send)
    await waitFor(() =>
      expect(answers).toEqual([
        { p_dispute_id: 'd1', p_text: 'I shared the link in my weekly post.', p_links: ['https://x.com/pat/status/1'] },
      ]),
    )
    const mine = await screen.findByTestId('dispute-answer')
    expect(mine).toHaveTextContent('I shared the link in my weekly post.')
    expect(within(mine).getByRole('link', { name: 'https://x.com/pat/status/1' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    )
    expect(screen.queryByTestId('dispute-answer-form')).not.toBeInTheDocument()
  })

  it("shows the database's refusal in its own words", async () => {
    signInAs('publisher', PUBLISHER)
    handlers(() => [dispute()])
    server.use(
      http.post(restUrl('rpc/answer_dispute'), () =>
        postgrestError(400, 'The 72 hours to answer this dispute are over; an admin decides with what is on file'),
      ),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/publisher/disputes/d1')
    const form = await screen.findByTestId('dispute-answer-form')
    await user.type(within(form).getByLabelText('Your answer'), 'These are readers of my own newsletter.')
    await user.click(within(form).getByRole('button', { name: 'Send answer' }))
    expect(
      await screen.findByText(
        'Failed to send your answer: The 72 hours to answer this dispute are over; an admin decides with what is on file',
      ),
    ).toBeInTheDocument()
  })

  it('offers no form once the 72 hours are over, and shows the decision in the publisher’s money', async () => {
    signInAs('publisher', PUBLISHER)
    handlers(() => [
      dispute({
        status: 'upheld',
        can_answer: false,
        answer_due_at: inHours(-1),
        decision_note: 'Same visitor, seconds apart',
        decided_at: inHours(0),
        refunded_subscribers: 2,
        earnings_cancelled: 4,
      }),
    ])
    renderRoute('/dashboard/publisher/disputes/d1')
    expect(await screen.findByTestId('your-answer')).toHaveTextContent('You did not answer within the 72 hours')
    expect(screen.queryByTestId('dispute-answer-form')).not.toBeInTheDocument()
    expect(screen.getByTestId('dispute-outcome')).toHaveTextContent(
      'Earnings cancelled for 2 subscribers (4.00 credits).',
    )
    expect(screen.getByTestId('dispute-decision')).toHaveTextContent('Admin’s note: Same visitor, seconds apart')
  })

  it('says so when the dispute is not one of theirs', async () => {
    signInAs('publisher', PUBLISHER)
    handlers(() => [])
    renderRoute('/dashboard/publisher/disputes/someone-elses')
    expect(await screen.findByRole('heading', { level: 1, name: 'Dispute not found' })).toBeInTheDocument()
  })
})
