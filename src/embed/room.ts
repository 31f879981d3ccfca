/**
 * The room an embed's snippet reserves on the host page (issue 41): the frame's height, written into the snippet as
 * the iframe's `height` attribute, so the host's first paint already has the room and nothing moves when the offers
 * arrive. It comes from how many newsletters the embed shows now (`publisher_embed_figures.offers`, from the
 * database), and the frame adapts inside it (src/embed/frame.css): fewer offers later leave space under the list,
 * more scroll inside it.
 *
 * The figures follow frame.css on a 390 px phone (title and note on two lines each; on a wider page both take one
 * line and the list gets the difference).
 */

/** Everything but the list: border and padding, title, the email field with its button, the note. */
export const EMBED_ROOM_CHROME = 212
/** One offer: its name and two lines of description. */
export const EMBED_ROW = 76
/** The list shows at most this many offers whole, then half of the next one, which says the list scrolls. */
export const EMBED_ROWS_SHOWN = 3

/** The frame's height in CSS pixels for `offers` newsletters (at least one row: the notice when there is none). */
export function embedRoomHeight(offers: number): number {
  const rows = Math.min(Math.max(Math.trunc(offers) || 0, 1), EMBED_ROWS_SHOWN)
  return EMBED_ROOM_CHROME + rows * EMBED_ROW + (offers > EMBED_ROWS_SHOWN ? EMBED_ROW / 2 : 0)
}

/** The frame's accessible name, the same in the snippet, from embed.js and in the preview. */
export const EMBED_FRAME_TITLE = 'Recommended newsletters'

/**
 * The snippet the Embed page gives: the frame with its room, then the one-line script (ARCHITECTURE "Wave 4
 * interfaces", embed), which adopts the frame instead of placing one. Attributes only, no `style`: a host whose CSP
 * allows only the script and the frame shows it as it is. Without the script (a site builder that strips scripts)
 * the frame still works and scrolls inside its room.
 */
export function embedSnippet(origin: string, unifiedCode: string, offers: number): string {
  const code = encodeURIComponent(unifiedCode)
  return (
    `<iframe src="${origin}/embed/${code}" title="${EMBED_FRAME_TITLE}" width="100%" height="${embedRoomHeight(offers)}" frameborder="0"></iframe>` +
    `<script async src="${origin}/embed.js" data-source="${unifiedCode}"></script>`
  )
}
