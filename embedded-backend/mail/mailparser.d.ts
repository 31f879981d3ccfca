// mailparser 3.9 ships no types and @types/mailparser is not installed; this declares the part we use.
declare module 'mailparser' {
  import type { Readable } from 'node:stream'

  export type EmailAddress = { address?: string; name: string }
  export type AddressObject = { value: EmailAddress[]; text: string; html: string }
  export type ParsedMail = {
    from?: AddressObject
    to?: AddressObject | AddressObject[]
    subject?: string
    date?: Date
    text?: string
    html: string | false
  }
  export function simpleParser(source: Readable | Buffer | string): Promise<ParsedMail>
}
