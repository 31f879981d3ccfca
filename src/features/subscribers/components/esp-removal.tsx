/**
 * A refunded reader in the advertiser's email tool (issue 38): still there, with "Remove from <tool>" (behind a
 * confirmation saying what the tool will do), being removed, removed on a date, or the tool's refusal in a sentence
 * with the button again. Only for a refunded reader that was delivered; the database checks the same.
 */
import { useState } from 'react'
import { ESP_PROVIDER_NAMES, ESP_REMOVAL_EFFECTS, isEspProviderName } from '@rules/esp-connection'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { formatDateTime } from '@/lib/format'
import type { EspDelivery } from '../api/esp-deliveries-query'
import type { EspConnection } from '../api/esp-connection-query'
import { useEspRemoveMutation } from '../api/esp-remove-mutation'

type Props = {
  delivery: EspDelivery
  subscriptionId: string
  email: string
  connection: Pick<EspConnection, 'provider' | 'target_name'> | null | undefined
}

/** The removal's state in words; null while nothing was asked. */
export function removalText(delivery: EspDelivery, tool: string): string | null {
  switch (delivery.removal_status) {
    case 'removed':
      return `Removed from ${tool} on ${delivery.removed_at ? formatDateTime(delivery.removed_at) : 'an unknown date'}.`
    case 'queued':
      return delivery.removal_error
        ? `Removing from ${tool}; trying again after: ${delivery.removal_error}`
        : `Removing from ${tool}…`
    case 'failed':
      return `${tool} did not remove them: ${delivery.removal_error ?? 'no reason given'}`
    default:
      return null
  }
}

export function RefundedInTool({ delivery, subscriptionId, email, connection }: Props) {
  const [confirming, setConfirming] = useState(false)
  const remove = useEspRemoveMutation({ onSuccess: () => setConfirming(false) })
  const provider = connection && isEspProviderName(connection.provider) ? connection.provider : null
  const tool = provider ? ESP_PROVIDER_NAMES[provider] : 'your email tool'
  const said = removalText(delivery, tool)
  const canAsk = delivery.removal_status == null || delivery.removal_status === 'failed'
  return (
    <>
      <span
        className={`block text-xs break-words ${delivery.removal_status === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}
        data-testid="esp-refunded-state"
      >
        {said ?? `Still in ${tool}: remove them if you do not want to keep them.`}
      </span>
      {canAsk && provider ? (
        <Button size="sm" variant="outline" className="mt-1" onClick={() => setConfirming(true)}>
          Remove from {tool}
        </Button>
      ) : null}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              Remove {email} from {tool}?
            </DialogTitle>
            <DialogDescription>
              {provider && connection ? ESP_REMOVAL_EFFECTS[provider](connection.target_name) : null} Growletter asks{' '}
              {tool} with the key you connected; the answer shows here within a minute.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Keep them
            </Button>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate(subscriptionId)}>
              {remove.isPending ? 'Asking…' : `Remove from ${tool}`}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
