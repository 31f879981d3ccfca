/**
 * Fills labelled fields as a person pasting would: each field clicked, then its value pasted, in the order given;
 * a field without a value is left as it is. For tests about what a form does with its values (validation, what is
 * sent), not about keystrokes: user-event's `type` re-renders the form once per character (docs/decisions.md
 * "Formatters made once; tests paste what is only input").
 */
import { screen } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'

export async function pasteFields(user: UserEvent, fields: [label: string, value: string | undefined][]) {
  for (const [label, value] of fields) {
    if (!value) continue
    await user.click(screen.getByLabelText(label))
    await user.paste(value)
  }
}
