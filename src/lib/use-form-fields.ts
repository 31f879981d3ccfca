/**
 * A small form hook for the public forms (log in, register, password reset, two-factor code, contact, subscribe).
 *
 * Why not react-hook-form + zod here: those two (with the resolver) weigh ~28 KB gzip, which put /login and
 * /register over the 150 KB first-visit budget (ARCHITECTURE.md "Budgets"). These forms have a handful of text
 * fields and fixed rules, so plain validator functions and this hook do the same job in a few hundred bytes.
 * Dashboard forms (campaigns, sources, payouts) load on demand behind a sign-in, keep react-hook-form + zod
 * as STYLE.md describes, and share their schemas with the API calls.
 *
 * Behaves as react-hook-form's defaults did: nothing is checked until the first submit; after it, a field is
 * re-checked on every change; a failed submit focuses the first invalid field (in the order of `initial`); a
 * message set with `setError` (from the server) shows until that field changes.
 *
 * On a prerendered page (/contact, /newsletters) the form is HTML before the app takes it over, and a person may
 * type or press the submit button in between. So `ready` is false in that HTML (render the submit button disabled
 * until it is true: a native submit would put the message in the address bar and lose it), and what was typed
 * before hydration is adopted from the inputs once the form is live (React keeps the text on screen but not in
 * its state, so it would otherwise be validated as empty).
 */
import { useEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type FormEvent } from 'react'

/** Checks one field; `values` lets a rule compare fields (the repeated password). A message, or null when valid. */
export type Validator<V> = (value: string, values: V) => string | null

/** The rules of one form: a validator per field, and the fields whose value is submitted trimmed. */
export type FormRules<V extends Record<keyof V, string>> = {
  validate: { [K in keyof V]?: Validator<V> }
  trim?: readonly (keyof V)[]
}

type Errors<V> = Partial<Record<keyof V, string>>
type FieldElement = HTMLInputElement | HTMLTextAreaElement

/** Every rule's message for `values` (the first failing rule per field). */
export function validateAll<V extends Record<keyof V, string>>(rules: FormRules<V>, values: V): Errors<V> {
  const errors: Errors<V> = {}
  for (const name of Object.keys(rules.validate) as (keyof V)[]) {
    const message = rules.validate[name]?.(values[name], values)
    if (message) errors[name] = message
  }
  return errors
}

/** The values handed to the submit handler: the `trim` fields trimmed, the others as typed. */
export function submittedValues<V extends Record<keyof V, string>>(rules: FormRules<V>, values: V): V {
  const out = { ...values }
  for (const name of rules.trim ?? []) out[name] = values[name].trim() as V[typeof name]
  return out
}

const noSubscription = () => () => undefined

/** False while React hydrates prerendered HTML (its server snapshot), true from the first live render on. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}

export function useFormFields<V extends Record<keyof V, string>>(options: { initial: V } & FormRules<V>) {
  const { initial, ...rules } = options
  const [values, setValues] = useState<V>(initial)
  const [errors, setErrors] = useState<Errors<V>>({})
  const [touched, setTouched] = useState<Partial<Record<keyof V, true>>>({})
  const [submitted, setSubmitted] = useState(false)
  const [isSubmitting, setIsSubmitting] = useState(false)
  const elements = useRef<Partial<Record<keyof V, FieldElement>>>({})
  const ready = useHydrated()
  const latest = useRef(values)

  // Text typed into the prerendered inputs before hydration: the input shows it, so the form's values take it.
  useEffect(() => {
    const typed: Partial<V> = {}
    for (const name of Object.keys(elements.current) as (keyof V)[]) {
      const element = elements.current[name]
      if (element && element.value !== initial[name]) typed[name] = element.value as V[keyof V]
    }
    if (Object.keys(typed).length === 0) return
    latest.current = { ...latest.current, ...typed }
    setValues(latest.current)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount: later text arrives as change events
  }, [])

  const setError = (name: keyof V, message: string | undefined) =>
    setErrors((current) => ({ ...current, [name]: message }))

  const onChange = <K extends keyof V>(name: K, value: string) => {
    // Inputs give strings; a narrower field type (a radio group's options) is checked by the field's validator.
    // From the latest values (not this render's): a change may arrive before the adopted text has re-rendered.
    const next = { ...latest.current, [name]: value as V[K] }
    latest.current = next
    setValues(next)
    setError(name, submitted ? (rules.validate[name]?.(value, next) ?? undefined) : undefined)
  }

  /**
   * Props for the input of `name`. With `id`, also the id and the error's id (`<id>-error`, as FormField names it)
   * for screen readers; FormField sets the same ones itself.
   */
  const fieldProps = <K extends keyof V>(name: K, id?: string) => ({
    name: String(name),
    value: values[name],
    ref: (element: FieldElement | null) => {
      elements.current[name] = element ?? undefined
    },
    onChange: (event: ChangeEvent<FieldElement>) => onChange(name, event.target.value),
    onBlur: () => setTouched((current) => (current[name] ? current : { ...current, [name]: true })),
    'aria-invalid': errors[name] ? true : undefined,
    ...(id ? { id, 'aria-describedby': errors[name] ? `${id}-error` : undefined } : {}),
  })

  /** An onSubmit handler: checks every field, focuses the first invalid one, or runs `submit` with the values. */
  const handleSubmit = (submit: (values: V) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault()
    setSubmitted(true)
    const found = validateAll(rules, latest.current)
    setErrors(found)
    const firstInvalid = (Object.keys(values) as (keyof V)[]).find((name) => found[name])
    if (firstInvalid !== undefined) {
      elements.current[firstInvalid]?.focus()
      return
    }
    setIsSubmitting(true)
    try {
      await submit(submittedValues(rules, latest.current))
    } finally {
      setIsSubmitting(false)
    }
  }

  /** Back to `initial`, as a new form: no messages, and nothing checked until the next submit. */
  const reset = () => {
    latest.current = initial
    setValues(initial)
    setErrors({})
    setTouched({})
    setSubmitted(false)
  }

  /** Sets a field as typing would (a value the page already knows, e.g. an address from the link). */
  const setValue = <K extends keyof V>(name: K, value: string) => onChange(name, value)

  return {
    values,
    errors,
    touched,
    submitted,
    isSubmitting,
    ready,
    fieldProps,
    setError,
    setValue,
    handleSubmit,
    reset,
  }
}
