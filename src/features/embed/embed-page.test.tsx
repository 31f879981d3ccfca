// The publisher's Embed page (issue 41), reached from the dashboard's menu: per source the one-line snippet with a
// Copy button, the embed's own figures as publisher_embed_figures answers them, and the live preview of the frame.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute, storeTestSession } from '../../testing/render-route'

const PUBLISHER = { id: '00000000-0000-4000-a000-000000000003', email: 'publisher@growletter.test' }

const row = (overrides: Record<string, unknown> = {}) => ({
  source_id: 's1',
  source_name: "Pat's Product Notes",
  unified_code: 'demo-approved',
  status: 'approved',
  loads: 1234,
  subscribers: 17,
  paid_subscribers: 12,
  token_subscribers: 3,
  offers: 2,
  ...overrides,
})

function signIn(rows: unknown[]) {
  storeTestSession({ ...PUBLISHER, userType: 'publisher' })
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'publisher' }])),
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({})),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false })),
    http.get(restUrl('rpc/publisher_embed_figures'), () => HttpResponse.json(rows)),
  )
}

describe('publisher Embed page', () => {
  it('is in the menu and shows the snippet, the figures from the database and a preview', async () => {
    signIn([
      row(),
      row({
        source_id: 's2',
        source_name: 'New blog',
        unified_code: 'new-blog',
        status: 'pending_review',
        loads: 0,
        subscribers: 0,
        paid_subscribers: 0,
        token_subscribers: 0,
      }),
    ])
    renderRoute('/dashboard/publisher')
    await userEvent.click((await screen.findAllByRole('link', { name: 'Embed' }))[0]!)
    expect(await screen.findByRole('heading', { level: 1, name: 'Embed' })).toBeInTheDocument()
    const [live, pending] = await screen.findAllByTestId('embed-source')
    // The frame in the room its 2 newsletters need (212 + 2 × 76), then the one-line script that adopts it.
    const origin = window.location.origin
    const snippet =
      `<iframe src="${origin}/embed/demo-approved" title="Recommended newsletters" width="100%" height="364" frameborder="0"></iframe>` +
      `<script async src="${origin}/embed.js" data-source="demo-approved"></script>`
    expect(within(live!).getByTestId('embed-snippet')).toHaveTextContent(snippet, { normalizeWhitespace: false })
    expect(live).toHaveTextContent('It keeps room for the 2 newsletters shown now, so your page does not move')
    // What Copy puts on the clipboard is that snippet.
    const user = userEvent.setup()
    await user.click(within(live!).getByRole('button', { name: "Copy the embed snippet of Pat's Product Notes" }))
    expect(await navigator.clipboard.readText()).toBe(snippet)
    expect(within(live!).getByTestId('embed-loads')).toHaveTextContent('Loads1,234')
    expect(within(live!).getByTestId('embed-subscribers')).toHaveTextContent('Confirmed subscribers17')
    expect(within(live!).getByTestId('embed-paid')).toHaveTextContent('Paid subscribers12')
    expect(within(live!).getByTestId('embed-token')).toHaveTextContent('Paid through a click token3')
    await userEvent.click(within(live!).getByRole('button', { name: 'Show preview' }))
    const preview = within(live!).getByTitle("Preview of the embed of Pat's Product Notes")
    expect(preview).toHaveAttribute('src', '/embed/demo-approved')
    // The preview shows the frame in the same room as the snippet.
    expect(preview.style.height).toBe('364px')
    // A source waiting for review has nothing to paste yet.
    expect(within(pending!).queryByTestId('embed-snippet')).toBeNull()
    expect(pending).toHaveTextContent('Waiting for review.')
  })

  it('asks a publisher without a source to add one', async () => {
    signIn([])
    renderRoute('/dashboard/publisher/embed')
    expect(await screen.findByText('Add a source first: each approved source gets its own embed.')).toBeInTheDocument()
  })
})
