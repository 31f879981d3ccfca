/**
 * The new-password checks the forms cannot make synchronously, shared by sign-up, the reset page and the account
 * page: the list of common and leaked passwords (supabase/functions/_shared/rules/leaked-passwords.ts, ~85 KB
 * gzip) is fetched only when someone chooses a password, once; and the auth server's 422 `weak_password` is said
 * in the forms' own words (the shared rules' sentences), whichever rule it names.
 */
import { weakPasswordSentence } from '@rules/password'

type LeakedList = typeof import('@rules/leaked-passwords')
let list: Promise<LeakedList> | undefined
const loadList = () => (list ??= import('@rules/leaked-passwords'))

/** Starts fetching the list (on focus of a new-password field), so the check on submit does not wait for it. */
export function preloadLeakedPasswords(): void {
  loadList().catch(() => {
    list = undefined
  })
}

/**
 * The sentence for a listed password, or null. When the list cannot be fetched (offline), null: the auth server
 * checks again and its answer is shown in the same words.
 */
export async function leakedPasswordProblem(password: string): Promise<string | null> {
  try {
    return (await loadList()).leakedPasswordProblem(password)
  } catch {
    list = undefined
    return null
  }
}

/**
 * An auth error that is GoTrue's `weak_password` (auth-js's AuthWeakPasswordError carries `reasons`), as the
 * sentence the forms use; null for any other error. Read by shape: importing auth-js's class would put it in
 * every public route's first load.
 */
export function weakPasswordText(error: unknown): string | null {
  if (!error || typeof error !== 'object' || (error as { code?: unknown }).code !== 'weak_password') return null
  const reasons = (error as { reasons?: unknown }).reasons
  return weakPasswordSentence(Array.isArray(reasons) ? reasons.map(String) : [])
}

/** Throws the sentence for a listed password, before anything is sent. */
export async function assertNotLeaked(password: string): Promise<void> {
  const problem = await leakedPasswordProblem(password)
  if (problem) throw new Error(problem)
}
