import { afterEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import { toast as sonnerToast } from 'sonner'
import { toast } from '@/lib/toast'
import { ToastOutlet } from '@/lib/toast-outlet'

afterEach(() => sonnerToast.dismiss())

describe('toast facade', () => {
  it('mounts no toaster before the first toast, then shows the toast with its description', async () => {
    const { container } = render(<ToastOutlet />)
    expect(container).toBeEmptyDOMElement()
    toast.success('Saved', { description: 'Your changes are live.' })
    expect(await screen.findByText('Saved')).toBeInTheDocument()
    expect(screen.getByText('Your changes are live.')).toBeInTheDocument()
  })

  it('passes every kind and its options through to sonner', async () => {
    toast('Plain', { duration: 10_000 })
    toast.error('Broken')
    toast.info('Note')
    toast.warning('Careful')
    await waitFor(() =>
      expect(sonnerToast.getToasts().map((t) => ('type' in t ? [t.title, t.type] : null))).toEqual(
        expect.arrayContaining([
          ['Plain', undefined],
          ['Broken', 'error'],
          ['Note', 'info'],
          ['Careful', 'warning'],
        ]),
      ),
    )
    expect(sonnerToast.getToasts().find((t) => 'title' in t && t.title === 'Plain')).toMatchObject({ duration: 10_000 })
  })

  it('keeps one toast on screen at a time (SPEC §9)', async () => {
    render(<ToastOutlet />)
    toast('First')
    toast('Second')
    const toastOf = (title: string) => screen.getByText(title).closest('[data-sonner-toast]')
    await waitFor(() => expect(toastOf('Second')).toHaveAttribute('data-visible', 'true'))
    // Sonner keeps the older toast in the DOM, hidden behind the one visible toast.
    expect(toastOf('First')).toHaveAttribute('data-visible', 'false')
  })

  it('never covers a control: bottom-right, offset above the phone bars, closable, and kept for SPEC §9’s delay', async () => {
    render(<ToastOutlet />)
    toast('Saved')
    const item = (await screen.findByText('Saved')).closest('[data-sonner-toast]')!
    const list = item.closest('[data-sonner-toaster]') as HTMLElement
    expect(list).toHaveAttribute('data-x-position', 'right')
    expect(list).toHaveAttribute('data-y-position', 'bottom')
    expect(list.style.getPropertyValue('--offset-bottom')).toBe('24px')
    expect(list.style.getPropertyValue('--mobile-offset-bottom')).toBe('96px')
    expect(within(item as HTMLElement).getByRole('button', { name: /close/i })).toBeInTheDocument()
    expect(sonnerToast.getToasts().find((t) => 'title' in t && t.title === 'Saved')).not.toHaveProperty('duration')
  })
})
