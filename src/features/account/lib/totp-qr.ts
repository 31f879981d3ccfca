/**
 * The QR code of a TOTP enrolment, drawn in the browser by the `qrcode` package from the otpauth:// URI, as an
 * SVG data URL. The URI is percent-encoded into the URL: the server's own data URL carried a raw `#` (in the
 * SVG's colours), which ends a URL, so browsers showed only the alt text.
 */
export const QR_OPTIONS = {
  type: 'svg',
  margin: 2,
  errorCorrectionLevel: 'M',
  color: { dark: '#000000', light: '#ffffff' },
} as const

export async function totpQrDataUrl(uri: string): Promise<string> {
  const { toString } = await import('qrcode')
  const svg = await toString(uri, QR_OPTIONS)
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}
