/**
 * Asks the provider, through the esp-connection function, for the lists a key can deliver into (`targets`) or
 * whether the key and chosen list work (`test`). A provider's refusal is an answer ({ ok: false, message }), not
 * an error; the function's own refusals (a bad key format, signed out) are errors with its words.
 */
import { useMutation } from '@tanstack/react-query'
import { functionErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

export type EspTarget = { id: string; name: string }
export type EspLookupVariables =
  | { action: 'targets'; provider: string; apiKey: string }
  | { action: 'test'; provider: string; apiKey: string; targetId: string }
export type EspLookupAnswer = { ok: true; targets?: EspTarget[]; target?: EspTarget } | { ok: false; message: string }

export async function lookUpEsp(variables: EspLookupVariables): Promise<EspLookupAnswer> {
  const { data, error } = await supabase.functions.invoke<EspLookupAnswer>('esp-connection', { body: variables })
  if (error) throw new Error(await functionErrorMessage(error, 'We could not reach your email tool. Try again.'))
  if (!data) throw new Error('We could not reach your email tool. Try again.')
  return data
}

export function useEspLookupMutation({ onSuccess }: { onSuccess?: (answer: EspLookupAnswer) => void } = {}) {
  return useMutation({ mutationFn: lookUpEsp, onSuccess })
}
