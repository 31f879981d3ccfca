// The prerendered pages (scripts/prerender-plugin.ts → src/app/prerender-page.ts): a listing named with
// `$\``, `$&` or `$'` (anyone can name a source or a campaign) is written as text. With a string replacement
// String.replace read them as patterns and pasted the page's own HTML into it (issue 21).
import { describe, expect, it } from 'vitest'
import { composePrerenderedPage, DATA_ID, insertLiteral, SHELL_TEMPLATE_ID } from '@/app/prerender-page'

const PAGE =
  '<html><head><title>Growletter</title></head><body><div id="root"></div><script src="/a.js"></script></body></html>'
const NAMES = ['Deals $` today', 'Tips & $& tricks', "Rock $' roll", 'Cash $$ flow', 'Group $1 and $<name>']

describe('prerendered pages', () => {
  it('inserts text literally, whatever `$` sequences it contains', () => {
    for (const name of NAMES) {
      expect(insertLiteral('<p>[x]</p>', '[x]', name)).toBe(`<p>${name}</p>`)
    }
  })

  it('writes a directory page whose listing names carry replacement patterns exactly as rendered', () => {
    const html = NAMES.map((n) => `<h3>${n}</h3>`).join('')
    const data = [{ name: NAMES[0] }, { name: '</script><script>alert(1)</script>' }]
    const out = composePrerenderedPage(PAGE, { route: '/audiences', html, data })
    expect(out).toBe(
      '<html><head><title>Growletter</title></head><body>' +
        `<div id="root" data-prerendered="/audiences">${html}</div>` +
        `<script type="application/json" id="${DATA_ID}">[{"name":"Deals $\` today"},{"name":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}]</script>` +
        '<script src="/a.js"></script></body></html>',
    )
  })

  it('puts the first-paint shell on the home page only, literally too', () => {
    const home = composePrerenderedPage(PAGE, {
      route: '/',
      html: '<p>Home $&</p>',
      data: null,
      shell: '<header>$` shell</header>',
    })
    expect(home).toContain(`<div id="root" data-prerendered="/"><p>Home $&</p></div>`)
    expect(home).toContain(`<template id="${SHELL_TEMPLATE_ID}"><header>$\` shell</header></template><script>`)
    expect(home.endsWith('</script></body></html>')).toBe(true)
    expect(
      composePrerenderedPage(PAGE, { route: '/about', html: '<p>About</p>', data: null, shell: '<header/>' }),
    ).not.toContain(SHELL_TEMPLATE_ID)
  })
})
