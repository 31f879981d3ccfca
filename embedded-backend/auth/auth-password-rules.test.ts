// The password rules are written once (supabase/functions/_shared/rules/password.ts): config.toml, which hosted
// Supabase applies, the embedded auth server and the SPA's forms must all say the same, and the documented demo
// password and the passwords the e2e journeys choose must pass them.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isLeakedPassword } from '../../supabase/functions/_shared/rules/leaked-passwords.ts'
import {
  newPasswordProblem,
  passwordAdvice,
  passwordBytes,
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_REQUIREMENTS,
  REQUIRED_CHARACTER_SETS,
  type PasswordRequirements,
} from '../../supabase/functions/_shared/rules/password.ts'
import type { BackendContext } from '../context'
import { loadConfig } from '../config'
import { weakPasswordReasons } from './password-policy'
import { authSettings } from './settings'
import { supabaseDir } from '../db/migrate'

const root = path.resolve(supabaseDir, '..')
const settingsOf = (auth: Record<string, unknown>) => authSettings({ config: { auth } } as unknown as BackendContext)

describe('password rules in config.toml', () => {
  it('are the shared constants: minimum_password_length 8, password_requirements ""', async () => {
    const { auth } = await loadConfig()
    expect(auth.minimum_password_length).toBe(PASSWORD_MIN_LENGTH)
    expect(auth.password_requirements).toBe(PASSWORD_REQUIREMENTS)
    expect([PASSWORD_MIN_LENGTH, PASSWORD_REQUIREMENTS]).toEqual([8, ''])
    const settings = authSettings({ config: await loadConfig() } as unknown as BackendContext)
    expect(settings.minPasswordLength).toBe(PASSWORD_MIN_LENGTH)
    expect(settings.requiredCharacters).toEqual(REQUIRED_CHARACTER_SETS[PASSWORD_REQUIREMENTS])
  })
})

describe('the server and the forms agree', () => {
  const samples = ['', 'short', 'abcdefgh', 'ABCDEFGH1', 'abcdefg1', 'Abcdefg1', 'Abcdefg1!', '12345678x', 'ÅÅÅÅ']
  const values = Object.keys(REQUIRED_CHARACTER_SETS) as PasswordRequirements[]

  it.each(values)('under password_requirements = "%s", the form refuses exactly what the server would', (value) => {
    const settings = settingsOf({ minimum_password_length: PASSWORD_MIN_LENGTH, password_requirements: value })
    const rules = { minLength: PASSWORD_MIN_LENGTH, requirements: value }
    for (const password of samples.filter(Boolean)) {
      const serverRefuses = weakPasswordReasons(settings, password).some((r) => r !== 'pwned')
      expect([password, newPasswordProblem(password, rules)]).toEqual([
        password,
        serverRefuses ? passwordAdvice(rules).rule : null,
      ])
    }
  })

  it('counts bytes as GoTrue does: four two-byte letters are 8', () => {
    expect(passwordBytes('ÅÅÅÅ')).toBe(8)
    expect(weakPasswordReasons(settingsOf({ minimum_password_length: 8 }), 'ÅÅÅÅ')).toEqual([])
  })
})

describe('the list of common and leaked passwords', () => {
  it('holds `password` and `12345678`, compared lower-cased', () => {
    for (const password of ['password', '12345678', 'Password', 'PASSWORD1', 'iloveyou', 'qwerty123']) {
      expect([password, isLeakedPassword(password)]).toEqual([password, true])
    }
  })

  it('holds only what the length rule lets by (8 to 72 bytes), so a lower minimum means regenerating it', async () => {
    const source = await readFile(path.join(supabaseDir, 'functions/_shared/rules/leaked-passwords.ts'), 'utf8')
    const entries = /const LIST = `\n([\s\S]*?)\n`/.exec(source)![1]!.split('\n')
    expect(entries.length).toBeGreaterThan(10_000)
    expect(
      entries.filter((p) => passwordBytes(p) < PASSWORD_MIN_LENGTH || passwordBytes(p) > PASSWORD_MAX_BYTES),
    ).toEqual([])
    expect(entries.filter((p) => p !== p.toLowerCase())).toEqual([])
  })

  it('lets the documented demo password through (README), under the configured rules', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8')
    const demo = /use the password `([^`]+)`/.exec(readme)?.[1]
    expect(demo).toBe('growletter-demo')
    const settings = authSettings({ config: await loadConfig() } as unknown as BackendContext)
    expect(weakPasswordReasons(settings, demo!)).toEqual([])
  })

  it('lets through every password the e2e journeys choose', async () => {
    const dir = path.join(root, 'e2e')
    const { readdir } = await import('node:fs/promises')
    const specs = (await readdir(dir)).filter((f) => f.endsWith('.spec.ts'))
    const chosen = new Set<string>()
    for (const spec of specs) {
      const text = await readFile(path.join(dir, spec), 'utf8')
      for (const m of text.matchAll(/(?:password: |chooseNewPassword\()'([^']+)'/g)) chosen.add(m[1]!)
    }
    expect(chosen.size).toBeGreaterThan(2)
    const settings = authSettings({ config: await loadConfig() } as unknown as BackendContext)
    for (const password of chosen) expect([password, weakPasswordReasons(settings, password)]).toEqual([password, []])
  })
})
