import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { campaignsHandler } from '../../testing/newsletter-fixtures'

async function openFormWithOneNewsletter() {
  server.use(campaignsHandler())
  renderRoute('/newsletters')
  await userEvent.click(await screen.findByLabelText('Select Morning Brew'))
  const panel = screen.getByTestId('subscribe-panel')
  return {
    panel,
    input: within(panel).getByLabelText('Email address'),
    submit: within(panel).getByRole('button', { name: 'Subscribe' }),
  }
}

describe('subscribe form: the email field', () => {
  it('takes the visitor to the empty field without scolding, and asks for an email on a second try', async () => {
    const { panel, input, submit } = await openFormWithOneNewsletter()
    await userEvent.click(submit)
    // Nothing typed yet (issue 38): the cursor goes to the field, no message.
    expect(input).toHaveFocus()
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument()
    await userEvent.click(submit)
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Please enter your email address')
    expect(input).toHaveFocus()
    expect(input).toHaveAttribute('aria-invalid', 'true')
  })

  it('after a failed submit, re-checks as the visitor types and clears the message once the email is valid', async () => {
    const { panel, input, submit } = await openFormWithOneNewsletter()
    await userEvent.type(input, 'reader@')
    await userEvent.click(submit)
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Please enter a valid email address')
    await userEvent.type(input, 'example.com')
    await waitFor(() => expect(within(panel).queryByRole('alert')).not.toBeInTheDocument())
    expect(input).toHaveAttribute('aria-invalid', 'false')
  })

  it('does not check while typing before the first submit', async () => {
    const { panel, input } = await openFormWithOneNewsletter()
    await userEvent.type(input, 'not-an-email')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument()
  })
})
