/**
 * The frame's body as the document carries it (scripts/embed-plugin.ts writes it into embed.html): the form is
 * painted, with its fonts and layout, while the offers are on their way, so rendering them (src/embed/frame.ts) only
 * fills the list and names the source. Subscribe waits, disabled, until there is something to choose.
 */
export const FRAME_BODY =
  '<main id="embed">' +
  '<h1 id="embed-title">Recommended newsletters</h1>' +
  '<form novalidate aria-labelledby="embed-title">' +
  '<fieldset aria-describedby="choice-error"><legend class="sr-only">Newsletters</legend>' +
  '<ul class="offers"><li><span class="notice" role="status">Loading newsletters…</span></li></ul></fieldset>' +
  '<p id="choice-error" class="error" role="alert"></p>' +
  '<label for="embed-email" class="field">Email address</label>' +
  '<div class="row"><input type="email" id="embed-email" name="email" autocomplete="email" placeholder="you@example.com" required aria-describedby="email-error">' +
  '<button type="submit" disabled>Subscribe</button></div>' +
  '<p id="email-error" class="error" role="alert"></p>' +
  '<p class="note">We email you a link for each newsletter; nothing starts until you confirm.</p>' +
  '</form>' +
  '<div class="done" role="status"></div>' +
  '</main>'
