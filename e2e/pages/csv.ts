/** Reads a CSV file our exports write (every field quoted, quotes doubled, CRLF line ends) into rows of fields. */
export function parseQuotedCsv(text: string): string[][] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"')))
}
