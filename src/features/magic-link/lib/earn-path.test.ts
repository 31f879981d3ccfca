// The one `/earn` pattern every door to the magic-link flow uses (main.tsx, boot, earn-click, the build's
// dist/earn.html rewrite): which paths are magic links, and the code it reads from them.
import { describe, expect, it } from 'vitest'
import { EARN_PATH, isEarnPath, paths } from '@/config/paths'
import { earnCodeOf } from '@/features/magic-link/lib/earn-click'

describe('the /earn path', () => {
  it.each(['/earn', '/earn/', '/earn/abc', '/earn/abc/', '/earn/a%20b', paths.earn('x y/z')])(
    '%s is a magic link',
    (path) => {
      expect(isEarnPath(path)).toBe(true)
    },
  )

  it.each(['/earned', '/earnings', '/earn/a/b', '/x/earn', '/newsletters'])('%s is not', (path) => {
    expect(isEarnPath(path)).toBe(false)
    expect(EARN_PATH.exec(path)).toBeNull()
  })

  it('gives the code back decoded, from the link paths.earn builds', () => {
    expect(earnCodeOf(paths.earn('x y/z'))).toBe('x y/z')
    expect(earnCodeOf('/earn')).toBe('')
    expect(earnCodeOf('/earn/a/b')).toBeNull()
  })
})
