/**
 * The subscribe form's one field, validated by the subscription schema (zod) without react-hook-form: the
 * schema and the function call (`../api/subscribe-mutation`, with zod) download when the visitor starts on the
 * form, not with every newsletter page. Behaves as the react-hook-form version did: validate on submit, then
 * re-validate on every change; a failed submit focuses the field; a server message shows until the next change.
 */
import { useCallback, useRef, useState, type ChangeEvent } from 'react'

type SubscribeApi = typeof import('../api/subscribe-mutation')

let api: Promise<SubscribeApi> | null = null
/** Loads (once) the schema and the call; a failed chunk download is retried on the next use. */
export const loadSubscribeApi = () =>
  (api ??= import('../api/subscribe-mutation').catch((error: unknown) => {
    api = null
    throw error
  }))

type Checked = { email: string; error?: undefined } | { email?: undefined; error: string }

async function check(value: string): Promise<Checked> {
  const { subscribeSchema } = await loadSubscribeApi()
  const result = subscribeSchema.safeParse({ email: value })
  if (result.success) return { email: result.data.email }
  return { error: result.error.issues[0]?.message ?? 'Please enter a valid email address' }
}

export function useEmailField() {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | undefined>()
  const submitted = useRef(false)
  const latest = useRef(0)
  const input = useRef<HTMLInputElement>(null)

  // Only the newest check may set the message, so a slow earlier one never overwrites it.
  const checkLatest = useCallback(async (next: string) => {
    const ticket = ++latest.current
    const checked = await check(next)
    if (ticket === latest.current) setError(checked.error)
    return ticket === latest.current ? checked : null
  }, [])

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setValue(event.target.value)
    if (submitted.current) void checkLatest(event.target.value)
  }

  /** The trimmed email when valid; otherwise shows the message, focuses the field and resolves to null. */
  const validate = async (): Promise<string | null> => {
    submitted.current = true
    const checked = await checkLatest(value)
    if (checked?.error) input.current?.focus()
    return checked?.email ?? null
  }

  const reset = () => {
    submitted.current = false
    latest.current += 1
    setValue('')
    setError(undefined)
  }

  return {
    error,
    setError,
    validate,
    reset,
    inputProps: { ref: input, value, onChange, onFocus: () => void loadSubscribeApi().catch(() => undefined) },
  }
}
