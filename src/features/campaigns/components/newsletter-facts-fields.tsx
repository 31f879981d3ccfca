/**
 * What the landing page tells about a newsletter (sample issue, frequency, audience size, who it is for), the same
 * four fields on the submit and the edit form. All optional; the schema (newsletterFactsShape) and the database
 * check them.
 */
import type { UseFormRegisterReturn } from 'react-hook-form'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { frequencyOptions } from '@/lib/vocabulary'
import { MAX_AUDIENCE_LINE } from '../campaign-schema'

export type NewsletterFactName = 'sampleIssueUrl' | 'frequency' | 'audienceSize' | 'audienceLine'

type Props = {
  /** Prefix of the control ids, so the two forms can sit on one page. */
  idPrefix: string
  register: (name: NewsletterFactName) => UseFormRegisterReturn
  errors: Partial<Record<NewsletterFactName, { message?: string }>>
  /** The saved frequency: given to the select as its default too, so it shows before the form's ref sets it. */
  defaultFrequency?: string
}

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-invalid:border-destructive md:text-sm'

export function NewsletterFactsFields({ idPrefix, register, errors, defaultFrequency = '' }: Props) {
  const id = (name: NewsletterFactName) => `${idPrefix}${name}`
  return (
    <fieldset className="grid gap-4 rounded-md border p-4" data-testid="newsletter-facts-fields">
      <legend className="px-1 text-sm font-medium">On your newsletter's page</legend>
      <p className="text-sm text-muted-foreground">
        Readers see these before they subscribe. All optional; after approval, changes are reviewed like the name.
      </p>
      <FormField
        id={id('sampleIssueUrl')}
        label="Sample issue link"
        hint="A past issue readers can open, starting with https://"
        error={errors.sampleIssueUrl?.message}
      >
        <Input type="url" inputMode="url" placeholder="https://" {...register('sampleIssueUrl')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={id('frequency')} label="How often it goes out" error={errors.frequency?.message}>
          <select className={selectClass} defaultValue={defaultFrequency} {...register('frequency')}>
            <option value="">Not stated</option>
            {frequencyOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          id={id('audienceSize')}
          label="Audience size (readers)"
          hint="As you count them today, e.g. 12000"
          error={errors.audienceSize?.message}
        >
          <Input type="text" inputMode="numeric" autoComplete="off" {...register('audienceSize')} />
        </FormField>
      </div>
      <FormField
        id={id('audienceLine')}
        label="Who it is for"
        hint={`One line, at most ${MAX_AUDIENCE_LINE} characters`}
        error={errors.audienceLine?.message}
      >
        <Input maxLength={MAX_AUDIENCE_LINE + 40} {...register('audienceLine')} />
      </FormField>
    </fieldset>
  )
}
