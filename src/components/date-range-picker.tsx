/** Start and end dates (UTC days) with quick presets; a reversed or too long range says why, beside the fields. */
import { useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { lastDays, rangeError, type DateRange } from '@/lib/date-range'

const presets = [7, 30, 90, 365] as const

export function DateRangePicker({ value, onChange }: { value: DateRange; onChange: (range: DateRange) => void }) {
  const [draft, setDraft] = useState(value)
  const id = useId()
  const error = rangeError(draft)
  const update = (next: DateRange) => {
    setDraft(next)
    if (!rangeError(next)) onChange(next)
  }
  return (
    <fieldset className="space-y-2" data-testid="date-range">
      <legend className="text-sm font-medium">Date range (UTC)</legend>
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={draft.from}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => update({ ...draft, from: e.target.value })}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={draft.to}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => update({ ...draft, to: e.target.value })}
          />
        </div>
        <div className="flex flex-wrap gap-1" role="group" aria-label="Quick ranges">
          {presets.map((days) => (
            <Button key={days} type="button" size="sm" variant="outline" onClick={() => update(lastDays(days))}>
              {days === 365 ? '1 year' : `${days} days`}
            </Button>
          ))}
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}
