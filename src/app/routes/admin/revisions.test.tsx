// The admins' revisions queue: loading, empty and failed states; each pending revision shows the live and the
// proposed values side by side and its version; approve and reject go through a confirmation dialog with a note
// (required to reject) to admin_decide_revision, naming the version on screen; a version the owner edited since is
// refused, said so, and the new version shown for its own decision; decided revisions are listed with their note.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, rpcArgs, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'

const pendingRevision = {
  id: 'r1',
  subject_type: 'audience_source',
  subject_id: 's1',
  subject_name: 'Growth Tweets',
  subject_status: 'approved',
  owner_email: 'publisher@growletter.test',
  changes: { name: 'Growth Threads', category: 'marketing' },
  current_values: { name: 'Growth Tweets', category: null },
  status: 'pending',
  review_note: null,
  created_at: '2026-11-01T10:00:00Z',
  decided_at: null,
  version: 1,
  updated_at: '2026-11-01T10:00:00Z',
}
const approvedRevision = {
  ...pendingRevision,
  id: 'r0',
  subject_name: 'Morning Brew',
  subject_type: 'campaign',
  changes: { description: 'Daily business news' },
  current_values: { description: 'Daily business news' },
  status: 'approved',
  review_note: 'Clearer, thanks',
  decided_at: '2026-11-02T10:00:00Z',
}

function revisions(pending: unknown[] | (() => unknown[]) = [pendingRevision], approved: unknown[] = []) {
  return http.get(restUrl('rpc/admin_revisions'), async ({ request }) => {
    const { p_status } = rpcArgs(request) as { p_status: string }
    if (p_status === 'pending') return HttpResponse.json(typeof pending === 'function' ? pending() : pending)
    return HttpResponse.json(p_status === 'approved' ? approved : [])
  })
}

describe('admin revisions', () => {
  it('shows a placeholder while loading', async () => {
    signInAs('admin')
    server.use(http.get(restUrl('rpc/admin_revisions'), () => new Promise(() => {})))
    renderRoute('/dashboard/admin/revisions')
    expect(await screen.findByRole('status', { name: 'Loading revisions' })).toBeInTheDocument()
  })

  it('says when nothing is waiting, and lists the latest decisions with their note', async () => {
    signInAs('admin')
    server.use(revisions([], [approvedRevision]))
    renderRoute('/dashboard/admin/revisions')
    expect(await screen.findByTestId('revisions-empty')).toHaveTextContent('No changes are waiting.')
    const decided = await screen.findByTestId('revision-approved')
    expect(decided).toHaveTextContent('Morning Brew: Description')
    expect(decided).toHaveTextContent('Note: “Clearer, thanks”')
  })

  it('says so when the queue cannot be loaded', async () => {
    signInAs('admin')
    server.use(http.get(restUrl('rpc/admin_revisions'), () => postgrestError(500, 'queue offline')))
    renderRoute('/dashboard/admin/revisions')
    const title = await screen.findByText('Could not load the revisions')
    expect(title.closest('[role="alert"]')).toHaveTextContent('queue offline')
  })

  it('shows the live and the proposed values side by side', async () => {
    signInAs('admin')
    server.use(revisions())
    renderRoute('/dashboard/admin/revisions')
    const item = await screen.findByTestId('revision')
    expect(item).toHaveTextContent('Growth Tweets')
    expect(item).toHaveTextContent('proposed by publisher@growletter.test')
    const rows = within(item).getAllByTestId('revision-field')
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Name', 'Growth Tweets', 'Growth Threads'],
      ['Category', '—', 'Marketing'],
    ])
  })

  it("shows a newsletter's page facts as its landing page words them", async () => {
    signInAs('admin')
    server.use(
      revisions([
        {
          ...pendingRevision,
          subject_type: 'campaign',
          subject_name: 'Morning Brew',
          changes: {
            sample_issue_url: 'https://brew.example/issues/9',
            frequency: 'weekly',
            audience_size: 12500,
            audience_line: 'Founders in a hurry',
          },
          current_values: { sample_issue_url: null, frequency: 'monthly', audience_size: 900, audience_line: null },
        },
      ]),
    )
    renderRoute('/dashboard/admin/revisions')
    const rows = within(await screen.findByTestId('revision')).getAllByTestId('revision-field')
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Sample issue link', '—', 'https://brew.example/issues/9'],
      ['How often it goes out', 'Monthly', 'Weekly'],
      ['Audience size', '900 readers', '12,500 readers'],
      ['Who it is for', '—', 'Founders in a hurry'],
    ])
  })

  it('approves after the confirmation dialog, with an optional note, and refreshes the queue', async () => {
    signInAs('admin')
    let pending = [pendingRevision]
    const calls: unknown[] = []
    server.use(
      revisions(() => pending),
      http.post(restUrl('rpc/admin_decide_revision'), async ({ request }) => {
        calls.push(await request.json())
        pending = []
        return HttpResponse.json({ id: 'r1', status: 'approved' })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/revisions')
    await user.click(await screen.findByRole('button', { name: 'Approve the changes to Growth Tweets' }))
    const dialog = await screen.findByRole('dialog', { name: /Approve the changes to source “Growth Tweets”/ })
    expect(calls).toEqual([])
    // Reasons pasted (click, then paste), not typed key by key: the tests are about what is sent.
    await user.click(within(dialog).getByLabelText('Reason (optional)'))
    await user.paste('Fine')
    await user.click(within(dialog).getByRole('button', { name: 'Approve changes' }))
    expect(await screen.findByTestId('revisions-empty')).toBeInTheDocument()
    expect(calls).toEqual([{ p_revision_id: 'r1', p_version: 1, p_decision: 'approved', p_note: 'Fine' }])
  })

  it('will not reject without a reason, then rejects with one', async () => {
    signInAs('admin')
    const calls: unknown[] = []
    server.use(
      revisions(),
      http.post(restUrl('rpc/admin_decide_revision'), async ({ request }) => {
        calls.push(await request.json())
        return HttpResponse.json({ id: 'r1', status: 'rejected' })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/revisions')
    await user.click(await screen.findByRole('button', { name: 'Reject the changes to Growth Tweets' }))
    const dialog = await screen.findByRole('dialog', { name: /Reject the changes/ })
    await user.click(within(dialog).getByRole('button', { name: 'Reject changes' }))
    expect(await within(dialog).findByText(/Give a reason/)).toBeInTheDocument()
    expect(calls).toEqual([])
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Misleading name')
    await user.click(within(dialog).getByRole('button', { name: 'Reject changes' }))
    await waitFor(() =>
      expect(calls).toEqual([{ p_revision_id: 'r1', p_version: 1, p_decision: 'rejected', p_note: 'Misleading name' }]),
    )
  })

  it('shows the database’s refusal', async () => {
    signInAs('admin')
    server.use(
      revisions(),
      http.post(restUrl('rpc/admin_decide_revision'), () => postgrestError(400, 'This revision was already decided')),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/revisions')
    await user.click(await screen.findByRole('button', { name: 'Approve the changes to Growth Tweets' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Approve changes' }))
    expect(
      await screen.findByText(/Failed to save the decision: This revision was already decided/),
    ).toBeInTheDocument()
  })

  it('refuses a version the owner edited since it was opened, says so, and shows the new version to decide', async () => {
    signInAs('admin')
    // The owner's second edit lands while the admin reads version 1: the database holds version 2.
    const edited = {
      ...pendingRevision,
      version: 2,
      updated_at: '2026-11-01T10:05:00Z',
      changes: { name: 'Claim your prize', url: 'https://evil.example/login' },
      current_values: { name: 'Growth Tweets', url: null },
    }
    let pending: unknown[] = [pendingRevision]
    const calls: Array<{ p_version: number; p_decision: string }> = []
    server.use(
      revisions(() => pending),
      http.post(restUrl('rpc/admin_decide_revision'), async ({ request }) => {
        const body = (await request.json()) as { p_version: number; p_decision: string }
        calls.push(body)
        if (body.p_version !== 2)
          return postgrestError(409, 'This change was edited after you opened it. Review the new version.', 'PT409')
        pending = []
        return HttpResponse.json({ id: 'r1', status: body.p_decision, version: 2 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin/revisions')
    const item = await screen.findByTestId('revision')
    expect(within(item).getByTestId('revision-version')).toHaveTextContent('version 1')
    pending = [edited]
    await user.click(within(item).getByRole('button', { name: 'Approve the changes to Growth Tweets' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve changes' }))
    // Refused, said in the item, not as a failure toast; the dialog closes and the queue shows version 2.
    const alert = await within(item).findByRole('alert')
    expect(alert).toHaveTextContent('This change was edited after you opened it. Review the new version.')
    expect(alert).toHaveTextContent('Nothing was applied. Below is version 2, as the owner left it.')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.queryByText(/Failed to save the decision: This change/)).not.toBeInTheDocument()
    expect(within(item).getByTestId('revision-version')).toHaveTextContent('version 2, edited')
    const rows = within(item).getAllByTestId('revision-field')
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Name', 'Growth Tweets', 'Claim your prize'],
      ['URL', '—', 'https://evil.example/login'],
    ])
    // The admin decides version 2, as read: rejected, and the queue empties.
    await user.click(within(item).getByRole('button', { name: 'Reject the changes to Growth Tweets' }))
    const dialog = await screen.findByRole('dialog', { name: /Reject the changes/ })
    expect(within(item).queryByRole('alert')).not.toBeInTheDocument()
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Looks like phishing')
    await user.click(within(dialog).getByRole('button', { name: 'Reject changes' }))
    expect(await screen.findByTestId('revisions-empty')).toBeInTheDocument()
    expect(calls.map((c) => [c.p_version, c.p_decision])).toEqual([
      [1, 'approved'],
      [2, 'rejected'],
    ])
  })
})
