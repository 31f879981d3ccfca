/**
 * Wallet initialisation on sign-in (SPEC §4, §6, §8). Every user gets a wallet (`ensure_wallet_exists`);
 * an advertiser also claims the sign-up bonus, which the database pays once ever and only at balance 0,
 * so calling it on every sign-in is safe. One retry after 2000 ms; the caller shows the failure toast.
 */
import { supabase } from '@/lib/supabase'

export const WALLET_RETRY_DELAY_MS = 2000

export type WalletInitOptions = {
  userId: string | null | undefined
  isAdvertiser: boolean
  wait?: (ms: number) => Promise<void>
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function initialiseOnce(userId: string, isAdvertiser: boolean): Promise<{ bonusPaid: boolean }> {
  const ensured = await supabase.rpc('ensure_wallet_exists', { p_user_id: userId })
  if (ensured.error) throw ensured.error
  if (!isAdvertiser) return { bonusPaid: false }
  const claimed = await supabase.rpc('claim_signup_bonus')
  if (claimed.error) throw claimed.error
  return { bonusPaid: Boolean((claimed.data as { paid?: boolean } | null)?.paid) }
}

/** Resolves true when the wallet is ready; `bonusPaid` tells the caller to refresh balances on screen. */
export async function initialiseWallet({ userId, isAdvertiser, wait = sleep }: WalletInitOptions) {
  if (!userId) {
    console.error('Wallet initialisation needs a user id')
    return { ok: false as const }
  }
  try {
    return { ok: true as const, ...(await initialiseOnce(userId, isAdvertiser)) }
  } catch (first) {
    console.warn('Wallet initialisation failed, retrying', first)
    await wait(WALLET_RETRY_DELAY_MS)
    try {
      return { ok: true as const, ...(await initialiseOnce(userId, isAdvertiser)) }
    } catch (second) {
      console.error('Wallet initialisation failed', second)
      return { ok: false as const }
    }
  }
}
