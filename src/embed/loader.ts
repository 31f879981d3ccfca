/**
 * `embed.js` (ARCHITECTURE "Wave 4 interfaces", embed): the one line a publisher puts on any site,
 * `<script async src="{app}/embed.js" data-source="{unified_code}"></script>`, becomes the source's offers in an
 * iframe from `{app}/embed/{unified_code}` (src/embed/frame.ts), placed where the script tag is.
 *
 * Built on its own as one small classic script (scripts/embed-plugin.ts; budget 15 KB gzip, it is well under 1 KB):
 * no imports but the frame's title, no globals but one guard. It works under a host CSP that allows only this script
 * and the frame: it writes no inline style attribute (CSSOM properties only) and no inline script.
 *
 * Two snippets are in use:
 * - the Embed page's (src/embed/room.ts): the frame itself, with the height of its room, then this script. The host's
 *   first paint has the room; the script adopts the frame and changes nothing of its layout.
 * - the older one line, the script alone: the script places the frame at a reserved height after the host has
 *   painted, which moves what follows it once (why the Embed page gives the frame with the snippet now).
 * The frame fills its room and adapts inside it; it asks for more only when its content cannot fit (a narrow page
 * with an error showing), and a frame never shrinks below its room.
 */
import { EMBED_FRAME_TITLE } from './room'

/** The height the script-only snippet reserves before it knows its content (the frame fits its offers into it). */
const RESERVED_HEIGHT = 440
const MESSAGE = 'growletter-embed:height'
const MEASURE = 'growletter-embed:measure'

type Frame = { iframe: HTMLIFrameElement; reserved: number }

declare global {
  interface Window {
    /** The frames of every copy of this script on the page (two snippets run it twice): one listener for all. */
    __growletterEmbed?: Frame[]
  }
}

function place(script: HTMLScriptElement) {
  const code = (script.dataset.source ?? '').trim()
  if (!code || script.dataset.growletterPlaced) return
  script.dataset.growletterPlaced = '1'
  const origin = new URL(script.src, document.baseURI).origin
  const before = script.previousElementSibling
  if (before instanceof HTMLIFrameElement && before.src.startsWith(`${origin}/embed/`)) {
    // The Embed page's snippet: the frame is already in its room.
    if (!frames().some((f) => f.iframe === before))
      frames().push({ iframe: before, reserved: Number(before.getAttribute('height')) || before.clientHeight })
    // A frame that loaded before this script says its height again (a frame still loading drops this).
    before.contentWindow?.postMessage(MEASURE, origin)
    return
  }
  const iframe = document.createElement('iframe')
  iframe.src = `${origin}/embed/${encodeURIComponent(code)}`
  iframe.title = EMBED_FRAME_TITLE
  iframe.setAttribute('scrolling', 'no')
  const style = iframe.style
  style.display = 'block'
  style.width = '100%'
  style.maxWidth = '560px'
  style.border = '0'
  style.colorScheme = 'light'
  style.height = `${RESERVED_HEIGHT}px`
  frames().push({ iframe, reserved: RESERVED_HEIGHT })
  script.parentNode?.insertBefore(iframe, script.nextSibling)
}

function placeAll() {
  const current = document.currentScript
  if (current instanceof HTMLScriptElement) place(current)
  // Several snippets on one page, or a loader that ran before the others were parsed.
  document.querySelectorAll<HTMLScriptElement>('script[data-source][src*="/embed.js"]').forEach(place)
}

function frames(): Frame[] {
  return (window.__growletterEmbed ??= [])
}

if (!window.__growletterEmbed) {
  frames()
  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown; height?: unknown } | null
    if (!data || data.type !== MESSAGE || typeof data.height !== 'number') return
    const frame = frames().find((f) => f.iframe.contentWindow === event.source)
    if (!frame || event.origin !== new URL(frame.iframe.src).origin) return
    frame.iframe.style.height = `${Math.max(frame.reserved, Math.min(Math.ceil(data.height), 4000))}px`
  })
}
placeAll()
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', placeAll)
