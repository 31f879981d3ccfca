import { afterEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { pasteFields } from '../../testing/paste-fields'

afterEach(() => toast.dismiss())

async function fillAndSend(values: { name?: string; email?: string; subject?: string; message?: string }) {
  const user = userEvent.setup()
  await screen.findByRole('heading', { name: 'Contact us' })
  await pasteFields(user, [
    ['Name', values.name],
    ['Email', values.email],
    ['Subject', values.subject],
    ['Message', values.message],
  ])
  await user.click(screen.getByRole('button', { name: 'Send message' }))
  return user
}

describe('contact form', () => {
  it('says what is missing next to each field, and sends nothing', async () => {
    renderRoute('/contact')
    await fillAndSend({ email: 'nope' })
    expect(await screen.findByText('Tell us your name.')).toBeInTheDocument()
    expect(screen.getByText('Enter a valid email address, like name@example.com.')).toBeInTheDocument()
    expect(screen.getByText('Add a subject.')).toBeInTheDocument()
    expect(screen.getByText('Write at least 10 characters so we can help.')).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
  })

  it('stores the message in contact_messages and confirms it', async () => {
    let body: unknown = null
    let prefer: string | null = null
    server.use(
      http.post(restUrl('contact_messages'), async ({ request }) => {
        body = await request.json()
        prefer = request.headers.get('prefer')
        return new HttpResponse(null, { status: 201 })
      }),
    )
    renderRoute('/contact')
    await fillAndSend({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Payouts',
      message: 'When are payouts sent out?',
    })
    expect(await screen.findByTestId('contact-sent')).toHaveTextContent('Thanks, your message is on its way.')
    expect(body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Payouts',
      message: 'When are payouts sent out?',
    })
    // Visitors cannot read messages back, so the insert must not ask for the row.
    expect(prefer ?? '').not.toContain('return=representation')

    await userEvent.click(screen.getByRole('button', { name: 'Send another message' }))
    expect(screen.getByLabelText('Subject')).toHaveValue('')
  })

  it('shows the database refusal in a toast and keeps what was typed', async () => {
    server.use(
      http.post(restUrl('contact_messages'), () =>
        HttpResponse.json(
          {
            code: '23514',
            message: 'new row for relation "contact_messages" violates check constraint',
            details: null,
            hint: null,
          },
          { status: 400 },
        ),
      ),
    )
    renderRoute('/contact')
    await fillAndSend({ name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A message long enough.' })
    expect(await screen.findByText(/Failed to send your message: new row for relation/)).toBeInTheDocument()
    expect(screen.getByLabelText('Subject')).toHaveValue('Hello')
  })
})
