/**
 * Asserts that THIS test raised a toast with the title (and description): sonner keeps toasts in module
 * state, and a dismissed toast of the previous test can linger in the DOM for a frame, so the check reads
 * sonner's active toasts and then the screen.
 */
import { afterEach, expect } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { toast } from 'sonner'

afterEach(() => {
  toast.dismiss()
})

export async function expectToast(title: string, description?: string) {
  await waitFor(() => {
    const active = toast.getToasts().filter((t) => !('dismiss' in t && t.dismiss))
    expect(active.map((t) => ('title' in t ? t.title : null))).toContain(title)
    if (description !== undefined) {
      expect(active.map((t) => ('description' in t ? t.description : null))).toContain(description)
    }
  })
  expect((await screen.findAllByText(title)).length).toBeGreaterThan(0)
  if (description !== undefined) expect(screen.getAllByText(description).length).toBeGreaterThan(0)
}
