/**
 * tailwind-merge for the routes that pass classes that conflict (a caller's `h-8` over a button's `h-10`): every
 * route but the public landing pages loads this before it renders (src/app/router.tsx), and so do the lazy pieces
 * of those pages that do (the phone menu, the signed-in user menu). See `cn` in ./utils.ts.
 */
import { twMerge } from 'tailwind-merge'
import { setClassMerge } from './utils'

// tailwind-merge builds its class tables on its first call: here, as the module loads, not inside a render.
twMerge('p-0')
setClassMerge(twMerge)

export const classMergeInstalled = true
