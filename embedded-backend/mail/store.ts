/** The dev mailbox's messages: in memory, newest first, capped so a long session cannot exhaust memory. */
import { randomUUID } from 'node:crypto'

export type StoredMessage = {
  id: string
  from: string
  to: string
  subject: string
  date: string
  text: string
  html: string
}

const MAX_MESSAGES = 1000

export class MessageStore {
  private messages: StoredMessage[] = []

  add(message: Omit<StoredMessage, 'id'>): StoredMessage {
    const stored = { id: randomUUID(), ...message }
    this.messages.unshift(stored)
    if (this.messages.length > MAX_MESSAGES) this.messages.length = MAX_MESSAGES
    return stored
  }

  /** Newest first; `to` filters by a recipient address (case-insensitive substring). */
  list(to?: string): StoredMessage[] {
    if (!to) return [...this.messages]
    const needle = to.toLowerCase()
    return this.messages.filter((m) => m.to.toLowerCase().includes(needle))
  }

  get(id: string): StoredMessage | undefined {
    return this.messages.find((m) => m.id === id)
  }

  clear() {
    this.messages = []
  }
}
