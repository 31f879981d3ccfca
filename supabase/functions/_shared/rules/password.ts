/**
 * Password rules, defined once: the sign-up, reset and account password forms (src/features) check them before
 * sending, and the embedded auth server (embedded-backend/auth/password-policy.ts) enforces them with GoTrue's 422
 * `weak_password`. supabase/config.toml sets the same two keys hosted Supabase enforces (`minimum_password_length`,
 * `password_requirements`), pinned to these constants by embedded-backend/auth/auth-password-rules.test.ts.
 *
 * The third rule, "not a common or leaked password", is leaked-passwords.ts (a list shipped with the project);
 * hosted Supabase's own check of that kind is its leaked-password protection (HaveIBeenPwned).
 *
 * Pure TypeScript with no imports: Deno (the functions), Node (the embedded backend) and Vite (the SPA) load it.
 */

/** The Supabase CLI's `password_requirements` values (supabase/cli pkg/config/auth.go). */
export type PasswordRequirements =
  | ''
  | 'letters_digits'
  | 'lower_upper_letters_digits'
  | 'lower_upper_letters_digits_symbols'

/** `[auth] minimum_password_length`. */
export const PASSWORD_MIN_LENGTH = 8
/**
 * `[auth] password_requirements`: none. Length plus the leaked-password list is the rule (NIST SP 800-63B and
 * OWASP ASVS advise against required character kinds: `password1` has both kinds and is in every leak), and the
 * documented demo password `growletter-demo` keeps working. docs/decisions.md "Sign-up and OTP do not tell who has an account;
 * password rules".
 */
export const PASSWORD_REQUIREMENTS: PasswordRequirements = ''
/** bcrypt reads 72 bytes; GoTrue refuses longer passwords (400) rather than silently cutting them. */
export const PASSWORD_MAX_BYTES = 72

const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const DIGITS = '0123456789'
// The Supabase CLI's symbol set for lower_upper_letters_digits_symbols (`\` and `:` included).
const SYMBOLS = '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~'

/** Each value's character sets: a password needs one character of each (GoTrue's `required_characters`). */
export const REQUIRED_CHARACTER_SETS: Record<PasswordRequirements, readonly string[]> = {
  '': [],
  letters_digits: [LOWER + UPPER, DIGITS],
  lower_upper_letters_digits: [LOWER, UPPER, DIGITS],
  lower_upper_letters_digits_symbols: [LOWER, UPPER, DIGITS, SYMBOLS],
}

const KINDS_IN_WORDS: Record<PasswordRequirements, string> = {
  '': '',
  letters_digits: ' with letters and numbers',
  lower_upper_letters_digits: ' with lower-case and upper-case letters and numbers',
  lower_upper_letters_digits_symbols: ' with lower-case and upper-case letters, numbers and symbols',
}

/** GoTrue's `weak_password.reasons`. */
export type WeakPasswordReason = 'length' | 'characters' | 'pwned'

export type PasswordRules = { minLength: number; requirements: PasswordRequirements }
export const PASSWORD_RULES: PasswordRules = { minLength: PASSWORD_MIN_LENGTH, requirements: PASSWORD_REQUIREMENTS }

/** What a person reads: one sentence per thing to do, the same for the forms' own check and the server's answer. */
export const passwordAdvice = (rules: PasswordRules = PASSWORD_RULES) => ({
  missing: 'Choose a password.',
  /** Said for `length` and for `characters`: the whole rule, so one fix satisfies both. */
  rule: `Use at least ${rules.minLength} characters${KINDS_IN_WORDS[rules.requirements]}.`,
  tooLong: `Use at most ${PASSWORD_MAX_BYTES} characters.`,
  pwned: 'This password appears in lists of leaked passwords. Choose another.',
})

/** The field's hint: the rule before anyone breaks it. */
export const passwordHint = (rules: PasswordRules = PASSWORD_RULES) =>
  `At least ${rules.minLength} characters${KINDS_IN_WORDS[rules.requirements]}, not a common or leaked password.`

/** UTF-8 bytes, as GoTrue (Go's `len`) counts a password against both bounds. */
export const passwordBytes = (password: string) => new TextEncoder().encode(password).length

/**
 * The length and character-kind reasons GoTrue would give for `password` (the list is leaked-passwords.ts). The
 * server passes its configured bounds; the forms use the constants.
 */
export function passwordRuleReasons(
  password: string,
  minLength: number = PASSWORD_MIN_LENGTH,
  sets: readonly string[] = REQUIRED_CHARACTER_SETS[PASSWORD_REQUIREMENTS],
): WeakPasswordReason[] {
  const reasons: WeakPasswordReason[] = []
  if (passwordBytes(password) < minLength) reasons.push('length')
  if (sets.some((set) => ![...set].some((c) => password.includes(c)))) reasons.push('characters')
  return reasons
}

/** GoTrue's own words for each reason (internal/api/password.go), which its 422 `msg` joins with spaces. */
export function goTrueWeakPasswordMessage(reason: WeakPasswordReason, minLength: number, sets: readonly string[]) {
  if (reason === 'length') return `Password should be at least ${minLength} characters.`
  if (reason === 'characters') return `Password should contain at least one character of each: ${sets.join(', ')}.`
  return 'Password is known to be weak and easy to guess, please choose a different one.'
}

/** The sentence for a server's `weak_password.reasons` (the rule first: it is what a person fixes first). */
export function weakPasswordSentence(reasons: readonly string[], rules: PasswordRules = PASSWORD_RULES): string {
  const advice = passwordAdvice(rules)
  if (reasons.includes('length') || reasons.includes('characters')) return advice.rule
  return advice.pwned
}

/** The forms' synchronous check of a new password: a sentence saying what to do, or null. */
export function newPasswordProblem(password: string, rules: PasswordRules = PASSWORD_RULES): string | null {
  const advice = passwordAdvice(rules)
  if (!password) return advice.missing
  if (passwordBytes(password) > PASSWORD_MAX_BYTES) return advice.tooLong
  return passwordRuleReasons(password, rules.minLength, REQUIRED_CHARACTER_SETS[rules.requirements]).length
    ? advice.rule
    : null
}
