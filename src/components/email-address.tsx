/**
 * An email address that wraps where a reader expects it to in a narrow column: after the @ and before each dot,
 * never in the middle of a word unless one part alone is wider than the column.
 */
import { Fragment } from 'react'

export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?=\.)|(?<=@)/)
  return (
    <span className={['break-words', className].filter(Boolean).join(' ')} data-testid="email-address">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  )
}
