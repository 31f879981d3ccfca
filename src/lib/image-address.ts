/**
 * What an image field accepts: nothing, an http(s) address, or a path of an image this site serves (`/seed/…`, the
 * demo data's pictures). Without the path, a listing whose image the site serves could not be edited at all: the
 * form refused its own saved value. Protocol-relative `//host/…` is not a path of this site and stays refused.
 */
export const IMAGE_ADDRESS_MESSAGE = 'Enter an address starting with https:// or http://, or a path on this site (/…)'

export function isImageAddress(value: string): boolean {
  return value === '' || /^https?:\/\/\S+\.\S+/i.test(value) || /^\/(?!\/)\S+$/.test(value)
}
