/**
 * Subscribe one email to several newsletters (edge function `subscribe`): pending subscriptions and ONE
 * email. The answer lists every newsletter the email is about and is the same whether or not the address
 * already subscribes (the email says which, so only the inbox's owner learns it). Bad input answers 400 and
 * too many attempts 429, both with a readable message. The form's rule is ../subscribe-rules.ts; the form loads
 * this module when it is first used and runs `subscribe` in its own mutation.
 */
import { supabase } from '@/lib/supabase'
import { functionErrorMessage } from '@/lib/function-error'

export type SubscribeVariables = {
  email: string
  campaignIds: string[]
  audienceSourceId?: string
  clickId?: string
  /** The link's signed click token (`ct`): the attribution survives a change of browser or network. */
  clickToken?: string
}
export type SubscribedNewsletter = { campaignId: string; newsletterName: string }
export type SubscribeResult = { pending: SubscribedNewsletter[] }

const list = (value: unknown): SubscribedNewsletter[] =>
  Array.isArray(value)
    ? value.flatMap((item) =>
        item && typeof item === 'object' && typeof (item as SubscribedNewsletter).campaignId === 'string'
          ? [
              {
                campaignId: (item as SubscribedNewsletter).campaignId,
                newsletterName: String((item as SubscribedNewsletter).newsletterName ?? ''),
              },
            ]
          : [],
      )
    : []

export async function subscribe(variables: SubscribeVariables): Promise<SubscribeResult> {
  const { data, error } = await supabase.functions.invoke('subscribe', { body: variables })
  if (error) throw new Error(await functionErrorMessage(error, 'Please try again later'))
  const body = (data ?? {}) as { success?: unknown; pending?: unknown; error?: unknown }
  if (body.success !== true) throw new Error(typeof body.error === 'string' ? body.error : 'Please try again later')
  return { pending: list(body.pending) }
}
