/** Where a directory card's 'Visit Page' goes (SPEC §2 `/audiences`). Pure, tested on its own. */

/** 'Visit Page' links out only to an http(s) address: the url first, else a description that is one. */
export function visitHref(url: string | null | undefined, description: string | null | undefined): string | null {
  for (const candidate of [url, description]) {
    const value = candidate?.trim() ?? ''
    if (/^https?:\/\/\S+/i.test(value)) return value
  }
  return null
}
