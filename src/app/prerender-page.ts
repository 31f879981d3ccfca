/**
 * The HTML of one prerendered page (scripts/prerender-plugin.ts writes it): the app's markup in `#root`, the
 * public data it was rendered from, and on `/` the first-paint shell. Every insertion is a function
 * replacement: the markup carries names publishers and advertisers chose, and a name with `$&`, `` $` `` or
 * `$'` must stay text — a string replacement would read them as patterns and paste parts of the page in.
 */
export const SHELL_TEMPLATE_ID = 'first-paint-shell'
export const DATA_ID = 'prerendered-queries'

/** JSON inside a <script> element: `<` escaped so no string in the data can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** Swaps the home page's HTML for the shell, before the first paint, on every path but `/`. */
export const SHELL_SWAP = `<script>(function(){var p=location.pathname;if(p==='/'||p==='')return;var t=document.getElementById('${SHELL_TEMPLATE_ID}'),r=document.getElementById('root');if(!t||!r)return;r.innerHTML=t.innerHTML;r.removeAttribute('data-prerendered');var d=document.getElementById('${DATA_ID}');if(d)d.remove()})()</script>`

/** `page` with the first `marker` replaced by `content`, taken literally. */
export function insertLiteral(page: string, marker: string, content: string): string {
  return page.replace(marker, () => content)
}

export type PrerenderedRoute = { route: string; html: string; data: unknown; shell?: string }

/** The built `index.html` (`page`) filled for one route. */
export function composePrerenderedPage(page: string, { route, html, data, shell }: PrerenderedRoute): string {
  let out = insertLiteral(
    page,
    '<div id="root"></div>',
    `<div id="root" data-prerendered="${route}">${html}</div>` +
      (data ? `<script type="application/json" id="${DATA_ID}">${scriptJson(data)}</script>` : ''),
  )
  if (route === '/' && shell !== undefined) {
    out = insertLiteral(out, '</body>', `<template id="${SHELL_TEMPLATE_ID}">${shell}</template>${SHELL_SWAP}</body>`)
  }
  return out
}
