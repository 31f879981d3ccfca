// The open-dispute form (react-hook-form with the schema beside open_dispute's call): one message at a time, in
// the order a person fixes them, with the description's words from @rules/dispute; nothing is sent until the
// form is whole; then the ticked subscribers (or the whole source) go to open_dispute with the description trimmed.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DISPUTE_REASON_MESSAGES } from '@rules/dispute'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { signInAs } from '../../testing/signed-in-fixtures'

const subscriber = (id: string, email: string) => ({
  id,
  email,
  confirmed_at: '2026-11-01T10:00:00Z',
  campaign_id: 'c1',
  campaign_name: 'Morning Brew',
  source_id: 's1',
  source_name: 'Growth Tweets',
  price: 2.5,
  in_dispute: false,
})

function disputeHandlers() {
  const opened: unknown[] = []
  server.use(
    http.get(restUrl('disputes'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/disputable_subscribers'), () =>
      HttpResponse.json([subscriber('n1', 'one@example.com'), subscriber('n2', 'two@example.com')]),
    ),
    http.post(restUrl('rpc/open_dispute'), async ({ request }) => {
      opened.push(await request.json())
      return HttpResponse.json('d1')
    }),
  )
  return opened
}

async function openDialog() {
  const user = userEvent.setup()
  renderRoute('/dashboard/advertiser/disputes')
  await user.click(await screen.findByTestId('open-dispute'))
  const dialog = await screen.findByRole('dialog', { name: 'Dispute subscribers' })
  await within(dialog).findByLabelText('Source')
  return { user, dialog }
}

describe('open dispute dialog', () => {
  it('asks for the source, then the subscribers, then a description, and sends nothing until all are given', async () => {
    signInAs('advertiser')
    const opened = disputeHandlers()
    const { user, dialog } = await openDialog()
    const submit = within(dialog).getByTestId('submit-dispute')
    await user.click(submit)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Choose the source the subscribers came from')
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Growth Tweets')
    await user.click(submit)
    expect(
      await within(dialog).findByText('Tick the subscribers you dispute, or dispute the whole source'),
    ).toBeInTheDocument()
    await user.click(within(dialog).getByRole('checkbox', { name: /two@example.com/ }))
    await user.type(within(dialog).getByLabelText('What is wrong?'), 'too short')
    await user.click(submit)
    expect(await within(dialog).findByText(DISPUTE_REASON_MESSAGES.tooShort)).toBeInTheDocument()
    expect(opened).toEqual([])
  })

  it('sends the ticked subscribers with the description trimmed, then closes', async () => {
    signInAs('advertiser')
    const opened = disputeHandlers()
    const { user, dialog } = await openDialog()
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Growth Tweets')
    await user.click(within(dialog).getByRole('checkbox', { name: /two@example.com/ }))
    // Pasted (click, then paste), not typed key by key: the test is about what is sent.
    await user.click(within(dialog).getByLabelText('What is wrong?'))
    await user.paste('  Never opened a single email  ')
    await user.click(within(dialog).getByTestId('submit-dispute'))
    expect(await screen.findByText('Dispute opened')).toBeInTheDocument()
    expect(opened).toEqual([{ p_reason: 'Never opened a single email', p_subscription_ids: ['n2'] }])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('disputes the whole source when asked, without ticking anyone', async () => {
    signInAs('advertiser')
    const opened = disputeHandlers()
    const { user, dialog } = await openDialog()
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Growth Tweets')
    await user.click(within(dialog).getByRole('checkbox', { name: /Dispute the whole source/ }))
    await user.click(within(dialog).getByLabelText('What is wrong?'))
    await user.paste('Every subscriber is a bot account')
    await user.click(within(dialog).getByTestId('submit-dispute'))
    // The dialog closes once open_dispute answers (the file's earlier toast may still be on screen).
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(opened).toEqual([{ p_reason: 'Every subscriber is a bot account', p_source_id: 's1' }])
  })
})
