// The admin's contact inbox: loading, failed, empty per filter, the messages newest first with a reply link, and the
// handled state stored through admin_set_contact_message_handled.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'

const message = (over: Record<string, unknown> = {}) => ({
  id: 'm1',
  name: 'Kim Reader',
  email: 'kim@example.com',
  subject: 'Invoice question',
  message: 'Where is my invoice?\nThanks',
  handled_at: null,
  created_at: '2026-11-02T10:00:00Z',
  total_count: 2,
  ...over,
})

describe('admin messages', () => {
  it('shows a loading state, then the unhandled messages with a reply link', async () => {
    signInAs('admin')
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const bodies: unknown[] = []
    server.use(
      http.get(restUrl('rpc/admin_contact_messages'), async ({ request }) => {
        bodies.push(rpcArgs(request))
        await gate
        return HttpResponse.json([message(), message({ id: 'm2', subject: 'Older', name: 'Pat' })])
      }),
    )
    renderRoute('/dashboard/admin/messages')
    expect(await screen.findByRole('status', { name: 'Loading messages' })).toBeInTheDocument()
    release()
    const items = await screen.findAllByTestId('contact-message')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Invoice question')
    expect(items[0]).toHaveTextContent('Kim Reader')
    expect(items[0]).toHaveTextContent('Not handled')
    expect(within(items[0]!).getByRole('link', { name: 'Reply by email' })).toHaveAttribute(
      'href',
      'mailto:kim%40example.com?subject=Re%3A%20Invoice%20question',
    )
    expect(bodies[0]).toEqual({ p_state: 'unhandled', p_limit: 20, p_offset: 0 })
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument()
  })

  it('says so when nothing is waiting, and when the inbox fails', async () => {
    signInAs('admin')
    server.use(
      http.get(restUrl('rpc/admin_contact_messages'), async ({ request }) => {
        const body = rpcArgs(request) as { p_state: string }
        return body.p_state === 'unhandled'
          ? HttpResponse.json([])
          : postgrestError(403, 'Enter your two-factor code to use admin tools', '42501')
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/messages')
    expect(await screen.findByText('Every message is handled.')).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Show'), 'all')
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your two-factor code to use admin tools')
  })

  it('marks a message handled in the database and shows it handled', async () => {
    signInAs('admin')
    let handledAt: string | null = null
    const calls: unknown[] = []
    server.use(
      http.get(restUrl('rpc/admin_contact_messages'), () =>
        HttpResponse.json([message({ handled_at: handledAt, total_count: 1 })]),
      ),
      http.post(restUrl('rpc/admin_set_contact_message_handled'), async ({ request }) => {
        calls.push(await request.json())
        handledAt = '2026-11-02T11:00:00Z'
        return HttpResponse.json(handledAt)
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/messages')
    await user.click(await screen.findByRole('button', { name: 'Mark handled' }))
    expect(await screen.findByRole('button', { name: 'Mark not handled' })).toBeInTheDocument()
    expect(screen.getByTestId('contact-message')).toHaveTextContent('Handled')
    expect(calls).toEqual([{ p_message_id: 'm1', p_handled: true }])
  })
})
