import { expect, it } from 'vitest'
import { cn } from '@/lib/utils'

it('joins classes as given until tailwind-merge is installed, then lets later utilities win', async () => {
  const hidden = false
  expect(cn('h-10 px-4', hidden && 'hidden', 'w-full')).toBe('h-10 px-4 w-full')
  expect(cn('h-10 px-4', 'h-8')).toBe('h-10 px-4 h-8')
  await import('@/lib/class-merge')
  expect(cn('h-10 px-4', 'h-8')).toBe('px-4 h-8')
  expect(cn('disabled:opacity-50', 'disabled:opacity-100!')).toBe('disabled:opacity-50 disabled:opacity-100!')
})
