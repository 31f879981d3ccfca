// The owner's view of their latest revision (shared by Manage and the publisher's sources): pending with the
// proposed text, approved, or rejected with the reviewer's note.
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PendingRevision } from '@/components/pending-revision'

describe('PendingRevision', () => {
  it('pending: says the changes wait and lists the proposed values in plain words', () => {
    render(
      <PendingRevision
        testId="r"
        revision={{
          status: 'pending',
          changes: { website_url: 'https://new.example', category: 'business' },
          review_note: null,
        }}
      />,
    )
    const notice = screen.getByTestId('r')
    expect(notice).toHaveTextContent('Changes waiting for review')
    expect(notice).toHaveTextContent('Visitors still see the approved version')
    expect(notice).toHaveTextContent('Website URL:https://new.example')
    expect(notice).toHaveTextContent('Category:Business')
  })

  it('approved: says so, without the proposed values', () => {
    render(
      <PendingRevision testId="r" revision={{ status: 'approved', changes: { name: 'New' }, review_note: 'Fine' }} />,
    )
    const notice = screen.getByTestId('r')
    expect(notice).toHaveTextContent('Your last changes were approved')
    expect(notice).not.toHaveTextContent('Name:New')
    expect(notice).toHaveTextContent("The reviewer's note: “Fine”")
  })

  it('rejected: says so with the reviewer’s note', () => {
    render(
      <PendingRevision
        testId="r"
        revision={{ status: 'rejected', changes: { name: 'X' }, review_note: 'Misleading' }}
      />,
    )
    expect(screen.getByTestId('r')).toHaveTextContent('Your last changes were not approved')
    expect(screen.getByTestId('r')).toHaveTextContent('“Misleading”')
  })
})
