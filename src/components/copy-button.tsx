/** Copies a link and says so; falls back to selecting nothing when the clipboard is unavailable. */
import { useState } from 'react'
import { CheckIcon, CopyIcon } from 'lucide-react'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'

export function CopyButton({
  value,
  label,
  copiedText = 'Link copied',
}: {
  value: string
  label: string
  /** What the toast says was copied. */
  copiedText?: string
}) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
      toast.success(copiedText)
    } catch {
      toast.error('Failed to copy the link: your browser blocked the clipboard')
    }
  }
  return (
    <Button type="button" size="sm" variant="outline" onClick={() => void copy()} aria-label={label}>
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  )
}
