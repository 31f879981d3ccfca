/**
 * Reads back which modules a `qrcode` SVG paints dark (its path draws each row as `M x y.5 hN m… hN` runs), and
 * what the QR code of a text must paint (qrcode's encoder). No QR decoder is installed here; comparing the two
 * matrices proves the picture on the page is exactly the QR code of that text, module for module.
 */
import QRCode from 'qrcode'

export function darkModulesOfSvg(svg: string): string[] {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1])
  const d = /<path stroke="[^"]+" d="([^"]+)"/.exec(svg)?.[1] ?? ''
  const rows = Array.from({ length: size }, () => Array.from({ length: size }, () => '0'))
  let x = 0
  let y = 0
  for (const [, command, a, b] of d.matchAll(/([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
    const n = Number(a)
    if (command === 'M') [x, y] = [n, Number(b)]
    else if (command === 'm') [x, y] = [x + n, y + Number(b)]
    else {
      const end = command === 'h' ? x + n : n
      for (let i = x; i < end; i++) rows[Math.floor(y)][i] = '1'
      x = end
    }
  }
  return rows.map((row) => row.join(''))
}

export function expectedDarkModules(
  text: string,
  margin: number,
  errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H',
): string[] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel })
  const size = modules.size + margin * 2
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) => {
      const r = row - margin
      const c = col - margin
      return r >= 0 && c >= 0 && r < modules.size && c < modules.size && modules.get(r, c) ? '1' : '0'
    }).join(''),
  )
}

export const svgOfDataUrl = (src: string) => decodeURIComponent(src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''))
