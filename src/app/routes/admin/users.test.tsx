import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'

const people = [
  {
    id: 'u1',
    email: 'ada@example.com',
    user_type: 'advertiser',
    full_name: 'Ada Lovelace',
    created_at: '2026-11-01T00:00:00Z',
  },
  { id: 'u2', email: 'pat@example.com', user_type: 'publisher', full_name: null, created_at: '2026-10-01T00:00:00Z' },
]

describe('admin users', () => {
  it('shows a loading state, then the users', async () => {
    signInAs('admin')
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get(restUrl('rpc/admin_list_users'), async () => {
        await gate
        return HttpResponse.json(people)
      }),
    )
    renderRoute('/dashboard/admin/users')
    expect(await screen.findByRole('status', { name: 'Loading users' })).toBeInTheDocument()
    release()
    const rows = await screen.findAllByTestId('user-row')
    expect(rows[0]).toHaveTextContent('ada@example.com')
    expect(rows[0]).toHaveTextContent('Advertiser')
    expect(rows[1]).toHaveTextContent('No name set')
    // The user's page (money, suspend) is a button in each row, not only the address as a link (issue 38).
    expect(within(rows[0]!).getByRole('link', { name: 'Open user' })).toHaveAttribute(
      'href',
      '/dashboard/admin/users/u1',
    )
  })

  it('says so when the list fails and when a search matches nobody', async () => {
    signInAs('admin')
    server.use(
      http.get(restUrl('rpc/admin_list_users'), async ({ request }) => {
        const body = rpcArgs(request) as { p_search?: string }
        return body.p_search ? HttpResponse.json([]) : postgrestError(403, 'Only an admin can do this', '42501')
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/users')
    expect(await screen.findByRole('alert')).toHaveTextContent('Only an admin can do this')
    await user.type(screen.getByLabelText('Search by email or name'), 'nobody')
    await user.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('No user matches “nobody”.')).toBeInTheDocument()
  })

  it('searches by email or name through admin_list_users', async () => {
    signInAs('admin')
    const bodies: unknown[] = []
    server.use(
      http.get(restUrl('rpc/admin_list_users'), async ({ request }) => {
        const body = rpcArgs(request) as { p_search?: string }
        bodies.push(body)
        return HttpResponse.json(body.p_search ? people.slice(1) : people)
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/users')
    expect(await screen.findAllByTestId('user-row')).toHaveLength(2)
    await user.type(screen.getByLabelText('Search by email or name'), 'pat')
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await screen.findByText((_, el) => el?.getAttribute('aria-live') === 'polite' && el.textContent === 'Users 1–1')
    expect(screen.getAllByTestId('user-row')).toHaveLength(1)
    expect(bodies).toEqual([
      { p_limit: 21, p_offset: 0 },
      { p_search: 'pat', p_limit: 21, p_offset: 0 },
    ])
  })

  it('changes a user type with a reason through admin_set_user_type', async () => {
    signInAs('admin')
    const calls: unknown[] = []
    server.use(
      http.get(restUrl('rpc/admin_list_users'), () => HttpResponse.json(people)),
      http.post(restUrl('rpc/admin_set_user_type'), async ({ request }) => {
        calls.push(await request.json())
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/users')
    await user.click(await screen.findByRole('button', { name: 'Change type of ada@example.com' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change the type of ada@example.com' })
    await user.selectOptions(within(dialog).getByLabelText('User type'), 'publisher')
    await user.click(within(dialog).getByRole('button', { name: 'Change type' }))
    expect(within(dialog).getByText(/Give a reason/)).toBeInTheDocument()
    // Pasted (click, then paste), not typed key by key: the test is about what is sent.
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Asked by email')
    await user.click(within(dialog).getByRole('button', { name: 'Change type' }))
    expect(await screen.findByText('ada@example.com is now a publisher')).toBeInTheDocument()
    expect(calls).toEqual([{ p_user_id: 'u1', p_user_type: 'publisher', p_reason: 'Asked by email' }])
  })
})
