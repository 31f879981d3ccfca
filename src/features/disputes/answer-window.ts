/**
 * Where a dispute stands on the publisher's side, from the row the database gives (answered_at, answer_due_at,
 * status): answered, still waiting within the 72 hours, or no answer came in time. Every screen words it from here.
 */
export type AnswerWindow =
  | { kind: 'answered'; at: string }
  | { kind: 'waiting'; until: string }
  | { kind: 'missed'; until: string }

type DisputeSide = { status: string; answered_at: string | null; answer_due_at: string }

export function answerWindow(d: DisputeSide, now: number = Date.now()): AnswerWindow {
  if (d.answered_at) return { kind: 'answered', at: d.answered_at }
  return d.status === 'open' && new Date(d.answer_due_at).getTime() > now
    ? { kind: 'waiting', until: d.answer_due_at }
    : { kind: 'missed', until: d.answer_due_at }
}
