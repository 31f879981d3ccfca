import { describe, expect, it, vi } from 'vitest'
import { act, useState } from 'react'
import { renderToString } from 'react-dom/server'
import { hydrateRoot } from 'react-dom/client'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useFormFields, type FormRules } from '@/lib/use-form-fields'

type Values = { first: string; second: string }
const rules: FormRules<Values> = {
  validate: {
    first: (value) => (value.trim() ? null : 'First is required.'),
    second: (value, values) => (value === values.first ? null : 'Must match first.'),
  },
  trim: ['first'],
}

function TestForm({ onSubmit }: { onSubmit: (values: Values) => Promise<void> | void }) {
  const form = useFormFields({ initial: { first: '', second: '' }, ...rules })
  const [server, setServer] = useState(false)
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(async (values) => {
        await onSubmit(values)
        if (!server) {
          setServer(true)
          form.setError('second', 'Rejected by the server.')
        }
      })}
    >
      <label htmlFor="first">First</label>
      <input {...form.fieldProps('first', 'first')} />
      {form.errors.first ? <p id="first-error">{form.errors.first}</p> : null}
      <label htmlFor="second">Second</label>
      <input {...form.fieldProps('second', 'second')} />
      {form.errors.second ? <p id="second-error">{form.errors.second}</p> : null}
      <button type="button" onClick={form.reset}>
        Reset
      </button>
      <output data-testid="state">{`${form.submitted ? 'submitted' : 'fresh'} ${form.touched.first ? 'touched' : 'untouched'}`}</output>
      <button type="submit" disabled={form.isSubmitting}>
        {form.isSubmitting ? 'Sending' : 'Send'}
      </button>
    </form>
  )
}

describe('useFormFields', () => {
  it('says nothing while typing before the first submit, and tracks touched fields', async () => {
    const user = userEvent.setup()
    render(<TestForm onSubmit={vi.fn()} />)
    await user.type(screen.getByLabelText('Second'), 'x')
    expect(screen.queryByText('Must match first.')).toBeNull()
    expect(screen.getByTestId('state')).toHaveTextContent('fresh untouched')
    await user.click(screen.getByLabelText('First'))
    await user.tab()
    expect(screen.getByTestId('state')).toHaveTextContent('fresh touched')
  })

  it('a failed submit shows every message, marks the inputs invalid and focuses the first invalid field', async () => {
    const user = userEvent.setup()
    const onSubmit = vi.fn()
    render(<TestForm onSubmit={onSubmit} />)
    await user.type(screen.getByLabelText('Second'), 'x')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByText('First is required.')).toBeInTheDocument()
    expect(screen.getByText('Must match first.')).toBeInTheDocument()
    const first = screen.getByLabelText('First')
    expect(first).toHaveFocus()
    expect(first).toHaveAttribute('aria-invalid', 'true')
    expect(first).toHaveAttribute('aria-describedby', 'first-error')
    expect(screen.getByTestId('state')).toHaveTextContent('submitted')
  })

  it('after a submit, re-checks a field on every change (and only that field)', async () => {
    const user = userEvent.setup()
    render(<TestForm onSubmit={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('First is required.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('First'), 'a')
    expect(screen.queryByText('First is required.')).toBeNull()
    expect(screen.getByLabelText('First')).not.toHaveAttribute('aria-invalid')
    // The second field was valid when last checked ('' === '') and is not re-checked by a change to the first.
    expect(screen.queryByText('Must match first.')).toBeNull()
    await user.type(screen.getByLabelText('Second'), 'b')
    expect(screen.getByText('Must match first.')).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Second'))
    await user.type(screen.getByLabelText('Second'), 'a')
    expect(screen.queryByText('Must match first.')).toBeNull()
  })

  it('submits the values with the trim fields trimmed, and is submitting until the handler settles', async () => {
    const user = userEvent.setup()
    let finish: () => void = () => undefined
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    render(<TestForm onSubmit={onSubmit} />)
    await user.type(screen.getByLabelText('First'), ' a ')
    await user.type(screen.getByLabelText('Second'), ' a ')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(onSubmit).toHaveBeenCalledWith({ first: 'a', second: ' a ' })
    expect(screen.getByRole('button', { name: 'Sending' })).toBeDisabled()
    finish()
    expect(await screen.findByRole('button', { name: 'Send' })).toBeEnabled()
  })

  it('a server message set with setError shows until that field changes', async () => {
    const user = userEvent.setup()
    render(<TestForm onSubmit={vi.fn()} />)
    await user.type(screen.getByLabelText('First'), 'a')
    await user.type(screen.getByLabelText('Second'), 'a')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Rejected by the server.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('First'), 'b')
    expect(screen.getByText('Rejected by the server.')).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Second'))
    await user.type(screen.getByLabelText('Second'), 'ab')
    expect(screen.queryByText('Rejected by the server.')).toBeNull()
    expect(screen.queryByText('Must match first.')).toBeNull()
  })

  it('reset starts the form afresh: initial values, no messages, nothing checked until the next submit', async () => {
    const user = userEvent.setup()
    render(<TestForm onSubmit={vi.fn()} />)
    await user.type(screen.getByLabelText('Second'), 'x')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('First is required.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reset' }))
    expect(screen.queryByText('First is required.')).toBeNull()
    expect(screen.getByLabelText('Second')).toHaveValue('')
    expect(screen.getByTestId('state')).toHaveTextContent('fresh untouched')
    await user.type(screen.getByLabelText('Second'), 'y')
    expect(screen.queryByText('Must match first.')).toBeNull()
  })
})

describe('useFormFields on a prerendered page', () => {
  function Prerendered({ onSubmit }: { onSubmit: (values: Values) => void }) {
    const form = useFormFields({ initial: { first: '', second: '' }, ...rules })
    return (
      <form noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <label htmlFor="first">First</label>
        <input {...form.fieldProps('first', 'first')} />
        <label htmlFor="second">Second</label>
        <input {...form.fieldProps('second', 'second')} />
        <button type="submit" disabled={!form.ready}>
          Send
        </button>
      </form>
    )
  }

  it('renders the submit button disabled in the HTML, and keeps what was typed before hydration', async () => {
    const onSubmit = vi.fn()
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Prerendered onSubmit={onSubmit} />)
    document.body.append(container)
    // A native submit before hydration would send the form as a GET to the page itself.
    expect(container.querySelector('button')).toBeDisabled()
    // Typed while the page was still HTML.
    container.querySelector<HTMLInputElement>('#first')!.value = 'Kim'
    container.querySelector<HTMLInputElement>('#second')!.value = 'Kim'

    await act(async () => void hydrateRoot(container, <Prerendered onSubmit={onSubmit} />))
    const send = screen.getByRole('button', { name: 'Send' })
    await waitFor(() => expect(send).toBeEnabled())
    await userEvent.setup().click(send)
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ first: 'Kim', second: 'Kim' }))
    expect(screen.queryByText('First is required.')).toBeNull()
    container.remove()
  })
})
