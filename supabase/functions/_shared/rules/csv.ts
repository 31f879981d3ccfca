/**
 * RFC 4180 CSV for files people open in a spreadsheet: every field quoted (a quote doubled), CRLF line
 * ends, and values a spreadsheet would run as a formula — starting with = + - @, or a tab or carriage
 * return that some programs skip before looking — prefixed with an apostrophe (OWASP "CSV injection").
 * An email address may legally start with any of = + - @ characters… and a subscriber chooses their own.
 * A plain decimal number (-12.50) is left as it is: it cannot run anything, and a debit must stay a number.
 *
 * Pure TypeScript with no imports: Deno (export-subscribers) and Vite (the admin's Money exports) both load it.
 */
const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/

export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`
  return `"${text.replaceAll('"', '""')}"`
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
