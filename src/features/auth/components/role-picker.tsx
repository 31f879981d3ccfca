/** The two account types a visitor can choose at registration (SPEC §6); shown and changeable. */
import { MegaphoneIcon, UsersIcon } from 'lucide-react'
import type { ChangeEvent, FocusEvent } from 'react'
import { cn } from '@/lib/utils'

const roles = [
  { value: 'advertiser', title: 'Advertiser', text: 'I have a newsletter and want subscribers.', Icon: MegaphoneIcon },
  { value: 'publisher', title: 'Influencer', text: 'I have an audience and want to earn.', Icon: UsersIcon },
] as const

/** The form's `userType` field: its value is the selected role; each radio carries its own value. */
type RoleField = {
  name: string
  value: string
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
  onBlur: (event: FocusEvent<HTMLInputElement>) => void
}

export function RolePicker({ field }: { field: RoleField }) {
  const selected = field.value
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">I am signing up as</legend>
      <div className="grid grid-cols-2 gap-2">
        {roles.map(({ value, title, text, Icon }) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm transition-colors focus-within:ring-2 focus-within:ring-ring',
              selected === value ? 'border-primary bg-accent' : 'hover:bg-muted',
            )}
          >
            <input
              type="radio"
              name={field.name}
              value={value}
              checked={selected === value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              className="sr-only"
              data-testid={`role-${value}`}
            />
            <span className="flex items-center gap-2 font-semibold">
              <Icon className="size-4" aria-hidden="true" /> {title}
            </span>
            <span className="text-muted-foreground">{text}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
