/** Add or edit a source (name, description, platform, URL, category, image). New sources wait for review. */
import { useId, useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import type { PublisherSource } from '../api/publisher-sources-query'
import { sourceFormSchema, useSourceSaveMutation, type SourceFormValues } from '../api/source-save-mutation'
import { categoryOptions, isCategory, isSourcePlatform, platformOptions } from '@/lib/vocabulary-catalog'

const toValues = (source?: PublisherSource): SourceFormValues => ({
  name: source?.name ?? '',
  description: source?.description ?? '',
  platform: source && isSourcePlatform(source.platform) ? source.platform : 'website',
  url: source?.url ?? '',
  category: source?.category && isCategory(source.category) ? source.category : '',
  image_url: source?.image_url ?? '',
})

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}

export function SourceFormDialog({
  userId,
  source,
  trigger,
}: {
  userId: string
  source?: PublisherSource
  trigger: ReactNode
}) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const form = useForm<SourceFormValues>({ resolver: zodResolver(sourceFormSchema), defaultValues: toValues(source) })
  const mutation = useSourceSaveMutation({
    onSuccess: () => {
      toast.success(
        !source
          ? 'Source submitted for review'
          : source.approved_at
            ? 'Changes sent for review; the approved version stays live meanwhile'
            : 'Source updated',
      )
      setOpen(false)
    },
  })
  const { errors } = form.formState
  const fieldProps = (name: keyof SourceFormValues) => ({
    id: `${id}-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    ...form.register(name),
  })

  const onSubmit = form.handleSubmit(async (values) => {
    await mutation.mutateAsync({ userId, sourceId: source?.id, values }).catch(() => undefined)
  })

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) form.reset(toValues(source))
        setOpen(next)
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{source ? `Edit ${source.name}` : 'Add a source'}</DialogTitle>
          <DialogDescription>
            {!source
              ? 'New sources wait for an admin to review them before their clicks count.'
              : source.approved_at
                ? 'This source is approved: your changes wait for an admin, and visitors see the approved version until then. Your magic link keeps working.'
                : 'Changes apply at once; the source still waits for review.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-3" data-testid="source-form">
          <Field id={`${id}-name`} label="Name" error={errors.name?.message}>
            <Input {...fieldProps('name')} />
          </Field>
          <Field id={`${id}-platform`} label="Platform" error={errors.platform?.message}>
            <select
              {...fieldProps('platform')}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {platformOptions.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-url`} label="URL" error={errors.url?.message}>
            <Input type="url" placeholder="https://" {...fieldProps('url')} />
          </Field>
          <Field id={`${id}-category`} label="Category" error={errors.category?.message}>
            <select
              {...fieldProps('category')}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <option value="">Choose a category</option>
              {categoryOptions.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-image_url`} label="Image URL" error={errors.image_url?.message}>
            <Input type="url" placeholder="https://" {...fieldProps('image_url')} />
          </Field>
          <Field id={`${id}-description`} label="Description" error={errors.description?.message}>
            <Textarea rows={3} {...fieldProps('description')} />
          </Field>
          <DialogFooter>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? 'Saving…' : source ? 'Save changes' : 'Submit for review'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
