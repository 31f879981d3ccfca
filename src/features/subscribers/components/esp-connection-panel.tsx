/**
 * "Connect your email tool": a campaign's confirmed subscribers delivered into the advertiser's beehiiv, Kit,
 * Mailchimp or MailerLite list. Provider and API key, "Load lists" (the provider's own lists, through the
 * esp-connection function), the list, "Test connection", then save (save_esp_connection keeps the key in Vault,
 * never shown again), optionally with the subscribers who already confirmed. Connected: the provider and list,
 * and Disconnect behind a confirmation.
 */
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { ESP_PROVIDER_NAMES, ESP_TARGET_NOUNS, isEspProviderName } from '@rules/esp-connection'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { FormField } from '@/components/form-field'
import { QueryError } from '@/components/query-error'
import { errorText } from '@/components/error-text'
import { toast } from '@/lib/toast'
import { useEspConnectionQuery, type EspConnection } from '../api/esp-connection-query'
import { useEspLookupMutation, type EspTarget } from '../api/esp-lookup-mutation'
import {
  espConnectionSchema,
  useEspConnectionSaveMutation,
  type EspConnectionValues,
} from '../api/esp-connection-save-mutation'
import { useEspDisconnectMutation } from '../api/esp-disconnect-mutation'
import { useSubscriberCountQuery } from '../api/subscriber-count-query'

const selectClass = 'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base md:text-sm'
const providerName = (p: string) => (isEspProviderName(p) ? ESP_PROVIDER_NAMES[p] : p)

export function EspConnectionPanel({ campaignId }: { campaignId: string }) {
  const connection = useEspConnectionQuery(campaignId)
  if (connection.isPending)
    return (
      <div role="status" aria-label="Loading your email tool connection">
        <Skeleton className="h-24" />
      </div>
    )
  if (connection.isError)
    return (
      <QueryError
        title="Could not load your email tool connection"
        error={connection.error}
        onRetry={() => void connection.refetch()}
      />
    )
  return connection.data ? (
    <Connected campaignId={campaignId} connection={connection.data} />
  ) : (
    <ConnectForm campaignId={campaignId} />
  )
}

function Connected({ campaignId, connection }: { campaignId: string; connection: EspConnection }) {
  const [confirming, setConfirming] = useState(false)
  const disconnect = useEspDisconnectMutation({
    onSuccess: () => {
      setConfirming(false)
      toast.success('Email tool disconnected')
    },
  })
  const name = providerName(connection.provider)
  return (
    <div className="flex flex-wrap items-center justify-between gap-3" data-testid="esp-connected">
      <p className="text-sm">
        Connected to <strong>{name}</strong>: new confirmed subscribers go to <strong>{connection.target_name}</strong>{' '}
        within a minute.
      </p>
      <Button variant="outline" onClick={() => setConfirming(true)}>
        Disconnect
      </Button>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Disconnect {name}?</DialogTitle>
            <DialogDescription>
              New subscribers will no longer be sent to {connection.target_name}, and your API key is deleted. Those
              already delivered stay in {name}.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Keep connected
            </Button>
            <Button variant="destructive" disabled={disconnect.isPending} onClick={() => disconnect.mutate(campaignId)}>
              {disconnect.isPending ? 'Disconnecting…' : 'Disconnect'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}

type Check = { ok: boolean; message: string } | null

function ConnectForm({ campaignId }: { campaignId: string }) {
  const form = useForm<EspConnectionValues>({
    resolver: zodResolver(espConnectionSchema),
    defaultValues: { provider: '', apiKey: '', targetId: '', backfill: true },
  })
  const errors = form.formState.errors
  const provider = useWatch({ control: form.control, name: 'provider' })
  const [targets, setTargets] = useState<EspTarget[] | null>(null)
  const [check, setCheck] = useState<Check>(null)
  const confirmed = useSubscriberCountQuery(campaignId, '')
  const lookup = useEspLookupMutation()
  const save = useEspConnectionSaveMutation({
    onSuccess: (queued) =>
      toast.success(
        queued > 0
          ? `Connected. ${queued.toLocaleString('en-US')} confirmed subscriber${queued === 1 ? '' : 's'} on the way.`
          : 'Connected. New confirmed subscribers go to your email tool.',
      ),
    onError: (e) => form.setError('root', { message: e.message }),
  })
  const noun = isEspProviderName(provider) ? ESP_TARGET_NOUNS[provider] : 'list'

  // Lists belong to one key: a new provider or key needs its lists loaded again.
  const forgetLists = () => {
    setTargets(null)
    setCheck(null)
    form.setValue('targetId', '')
  }

  const loadLists = async () => {
    if (!(await form.trigger(['provider', 'apiKey']))) return
    setCheck(null)
    const { provider: p, apiKey } = form.getValues()
    lookup.mutate(
      { action: 'targets', provider: p, apiKey: apiKey.trim() },
      {
        onSuccess: (answer) => {
          if (!answer.ok) return setCheck({ ok: false, message: answer.message })
          const found = answer.targets ?? []
          setTargets(found)
          if (found.length === 0)
            setCheck({ ok: false, message: `This ${providerName(p)} account has no ${noun} yet. Create one first.` })
          else if (found.length === 1) form.setValue('targetId', found[0]!.id)
        },
        onError: (e) => setCheck({ ok: false, message: errorText(e) }),
      },
    )
  }

  const test = async () => {
    if (!(await form.trigger())) return
    const { provider: p, apiKey, targetId } = form.getValues()
    lookup.mutate(
      { action: 'test', provider: p, apiKey: apiKey.trim(), targetId },
      {
        onSuccess: (answer) =>
          setCheck(
            answer.ok
              ? { ok: true, message: `Connection works: ${answer.target?.name ?? targetId} is ready.` }
              : { ok: false, message: answer.message },
          ),
        onError: (e) => setCheck({ ok: false, message: errorText(e) }),
      },
    )
  }

  const onSubmit = form.handleSubmit((values) => {
    const targetName = targets?.find((t) => t.id === values.targetId)?.name ?? values.targetId
    save.mutate({ ...values, campaignId, targetName })
  })

  const count = confirmed.data ?? 0
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" data-testid="esp-connect-form">
      <div className="grid gap-3 md:grid-cols-[12rem_1fr_auto] md:items-start">
        <FormField id="esp-provider" label="Email tool" error={errors.provider?.message}>
          <select
            className={selectClass}
            {...form.register('provider', { onChange: forgetLists })}
            data-testid="esp-provider"
          >
            <option value="">Choose…</option>
            {Object.entries(ESP_PROVIDER_NAMES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          id="esp-api-key"
          label="API key"
          error={errors.apiKey?.message}
          hint="Stored encrypted and never shown again."
        >
          <Input
            type="password"
            autoComplete="off"
            spellCheck={false}
            {...form.register('apiKey', { onChange: forgetLists })}
          />
        </FormField>
        <Button
          type="button"
          variant="outline"
          className="md:mt-6"
          disabled={lookup.isPending}
          onClick={() => void loadLists()}
        >
          {lookup.isPending && lookup.variables?.action === 'targets' ? 'Loading lists…' : 'Load lists'}
        </Button>
      </div>

      {targets && targets.length > 0 ? (
        <FormField id="esp-target" label={`Send subscribers to this ${noun}`} error={errors.targetId?.message}>
          <select className={selectClass} {...form.register('targetId', { onChange: () => setCheck(null) })}>
            <option value="">Choose a {noun}…</option>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </FormField>
      ) : errors.targetId ? (
        <p role="alert" className="text-sm text-destructive">
          {errors.targetId.message}
        </p>
      ) : null}

      {check ? (
        <p
          role={check.ok ? 'status' : 'alert'}
          className={check.ok ? 'text-sm text-green-700' : 'text-sm text-destructive'}
          data-testid="esp-check"
        >
          {check.message}
        </p>
      ) : null}

      {targets && targets.length > 0 ? (
        <>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" {...form.register('backfill')} />
            Also send the {count.toLocaleString('en-US')} subscriber{count === 1 ? '' : 's'} who already confirmed
          </label>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" disabled={lookup.isPending} onClick={() => void test()}>
              {lookup.isPending && lookup.variables?.action === 'test' ? 'Testing…' : 'Test connection'}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save connection'}
            </Button>
          </div>
        </>
      ) : null}
      {errors.root?.message ? (
        <p role="alert" className="text-sm text-destructive">
          {errors.root.message}
        </p>
      ) : null}
    </form>
  )
}
