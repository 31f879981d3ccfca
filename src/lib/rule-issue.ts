/**
 * Turns a shared rule's check (`(value) => message | null`, from supabase/functions/_shared/rules) into a zod
 * refinement, so a form's schema reports the rule's own words and the rule is written once.
 */
import type { z } from 'zod'

export const ruleIssue =
  (problem: (value: string) => string | null) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const message = problem(value)
    if (message) ctx.addIssue({ code: 'custom', message })
  }
