import { clsx, type ClassValue } from 'clsx'

let merge: ((classes: string) => string) | null = null

/** Installed by src/lib/class-merge.ts, the one module that brings tailwind-merge. */
export function setClassMerge(fn: (classes: string) => string) {
  merge = fn
}

/**
 * Joins class names. Where tailwind-merge is installed (src/lib/class-merge.ts: every route except the public
 * landing pages, src/app/router.tsx), later Tailwind utilities win over earlier ones. The public landing pages
 * pass no classes that conflict, so they join the same classes without tailwind-merge's 8.5 KB gzip (ARCHITECTURE
 * "Budgets": the /earn visit, ≤ 150 KB of JavaScript all told). This module must not import tailwind-merge: the
 * build's "shell" chunk takes in what its modules import.
 */
export function cn(...inputs: ClassValue[]) {
  const joined = clsx(inputs)
  return merge ? merge(joined) : joined
}
