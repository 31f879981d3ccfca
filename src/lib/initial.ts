/** The letter that stands in for a missing or broken picture (SPEC §2: "image, or the first letter of the name"). */
export function initialOf(name: string | null | undefined): string {
  // Array.from keeps an emoji or an accented capital whole instead of half a surrogate pair.
  const first = Array.from(name?.trim() ?? '')[0]
  return first ? first.toLocaleUpperCase() : '?'
}

/** Only addresses a browser can load without leaking the page (http, https, or our own paths) are tried at all. */
export function usableImageUrl(url: string | null | undefined): string | null {
  const value = url?.trim() ?? ''
  if (!value) return null
  if (value.startsWith('/') && !value.startsWith('//')) return value
  return /^https?:\/\/\S+$/i.test(value) ? value : null
}
