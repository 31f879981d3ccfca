// The room the Embed page's snippet reserves (src/embed/room.ts), and embed.js with both snippets: it adopts the
// frame the snippet placed (one frame, its room untouched), and still places one for the older script-only line.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EMBED_ROOM_CHROME, EMBED_ROW, embedRoomHeight, embedSnippet } from './room'

const APP = 'https://app.growletter.test'

describe('embedRoomHeight', () => {
  it('keeps room for each offer up to three, half of a fourth when there are more, and one row when none', () => {
    expect(embedRoomHeight(0)).toBe(EMBED_ROOM_CHROME + EMBED_ROW)
    expect(embedRoomHeight(1)).toBe(EMBED_ROOM_CHROME + EMBED_ROW)
    expect(embedRoomHeight(2)).toBe(EMBED_ROOM_CHROME + 2 * EMBED_ROW)
    expect(embedRoomHeight(3)).toBe(EMBED_ROOM_CHROME + 3 * EMBED_ROW)
    expect(embedRoomHeight(4)).toBe(EMBED_ROOM_CHROME + 3.5 * EMBED_ROW)
    expect(embedRoomHeight(6)).toBe(embedRoomHeight(4))
  })
})

describe('embedSnippet', () => {
  it('is the frame with its room in attributes (no style, for a strict CSP), then the one-line script', () => {
    expect(embedSnippet(APP, 'pat-notes', 2)).toBe(
      `<iframe src="${APP}/embed/pat-notes" title="Recommended newsletters" width="100%" height="364" frameborder="0"></iframe>` +
        `<script async src="${APP}/embed.js" data-source="pat-notes"></script>`,
    )
  })
})

describe('embed.js', () => {
  afterEach(() => {
    document.body.replaceChildren()
    delete window.__growletterEmbed
  })

  async function runLoader(html: string) {
    document.body.innerHTML = `<h1>Thanks</h1>${html}<p>After</p>`
    vi.resetModules()
    await import('./loader')
  }

  it("adopts the frame of the Embed page's snippet: no second frame, its room as the snippet wrote it", async () => {
    await runLoader(embedSnippet(APP, 'pat-notes', 6))
    const frames = document.querySelectorAll('iframe')
    expect(frames).toHaveLength(1)
    expect(frames[0]!.getAttribute('height')).toBe(String(embedRoomHeight(6)))
    expect(frames[0]!.getAttribute('style')).toBeNull()
    expect(window.__growletterEmbed?.map((f) => [f.iframe, f.reserved])).toEqual([[frames[0], embedRoomHeight(6)]])
  })

  it('places a frame for the older script-only line, at its reserved height', async () => {
    await runLoader(`<script async src="${APP}/embed.js" data-source="pat-notes"></script>`)
    const frames = document.querySelectorAll('iframe')
    expect(frames).toHaveLength(1)
    expect(frames[0]!.src).toBe(`${APP}/embed/pat-notes`)
    expect(frames[0]!.title).toBe('Recommended newsletters')
    expect(frames[0]!.style.height).toBe('440px')
  })
})
