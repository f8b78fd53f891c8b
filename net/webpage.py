"""The web door's pages: the name form, the game's page, a refusal.

The game's page is a terminal in the browser: textual-serve's ``textual.js`` (xterm.js and
the protocol of Textual's web driver) with its CSS and fonts, all served by the door
itself, so the page loads on a LAN with no internet. The page is sized for a phone as
well as a laptop: the terminal fills the window and every action the keys do has a
click (the app's footer and buttons). Everything a visitor typed is escaped here.
"""

from __future__ import annotations

from html import escape

#: Shared by every page: dark like the app, readable on a phone.
_STYLE = """
@font-face { font-family: "Roboto Mono";
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
html, body { margin: 0; height: 100%; background: #0c181f; color: #e8eef2;
  font-family: "Roboto Mono", monospace; }
main { max-width: 32rem; margin: 0 auto; padding: 2rem 1rem; }
h1 { font-size: 1.4rem; }
label { display: block; margin: 1rem 0 .4rem; }
input[type=text] { width: 100%; box-sizing: border-box; font: inherit; font-size: 1.2rem;
  padding: .6rem; background: #12232d; color: inherit; border: 1px solid #5a7a8c; }
button { font: inherit; font-size: 1.1rem; padding: .7rem 1.4rem; margin-top: 1rem;
  background: #5e0ba7; color: #fff; border: 0; cursor: pointer; }
.problem { color: #ffb3b3; border-left: 4px solid #ff6b6b; padding-left: .6rem; }
.phone { display: none; color: #ffd27a; }
@media (max-width: 600px) and (orientation: portrait) { .phone { display: block; } }
"""


def name_page(*, action: str, game: str, name: str = "", problem: str | None = None) -> str:
    """The form a visitor fills in once: the name the others see at the table."""
    said = (f'<p class="problem" role="alert">Not that name: {escape(problem)}</p>'
            if problem else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(game)}: your name</title><style>{_STYLE}</style></head>
<body><main>
<h1>{escape(game)}</h1>
<p>Hidden-information party games, played at the table of whoever invited you.</p>
<form method="post" action="{escape(action)}">
{said}
<label for="name">Your name at the table</label>
<input type="text" id="name" name="name" value="{escape(name)}" maxlength="24" required
 autofocus autocomplete="nickname">
<button type="submit" id="play">Play</button>
</form>
<p>This browser keeps the name until you close it.</p>
<p class="phone">On a phone, tap to play and swipe to scroll; held sideways, the
tables have more room.</p>
</main></body></html>"""


#: Scrolling by touch. The page script (textual.js) leaves a swipe to the browser while
#: the app listens to the mouse, which it always does, so nothing would ever scroll on a
#: phone: a long text, a form below the fold, the footer's keys past the edge. This
#: turns a swipe into the mouse wheel a terminal reports (SGR: 64 up, 65 down, 66 left,
#: 67 right), one notch a cell moved, where the finger went down — sent on the page script's
#: own socket, the one the page opens (the constructor is wrapped to know it).
TOUCH_SCROLL = """
(() => {
  const Real = window.WebSocket;
  let socket = null, size = null;
  function Wrapped(url, protocols) {
    // A touch screen as the pointer (a phone, a tablet: nothing hovers) says so: the
    // app then shows no tooltips, which would come up under the finger after a tap and
    // stay.
    if (window.matchMedia("(pointer: coarse)").matches) {
      url += (String(url).includes("?") ? "&" : "?") + "touch=1";
    }
    const ws = new Real(url, protocols);
    socket = ws;
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      if (typeof data === "string" && data.startsWith('["resize"')) {
        try { size = JSON.parse(data)[1]; } catch (e) { /* not ours to judge */ }
      }
      send(data);
    };
    return ws;
  }
  Wrapped.prototype = Real.prototype;
  Object.assign(Wrapped, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Wrapped;
  let last = null;
  function cell(touch, box) {
    const col = Math.floor((touch.clientX - box.left) / (box.width / size.width)) + 1;
    const row = Math.floor((touch.clientY - box.top) / (box.height / size.height)) + 1;
    return [Math.min(Math.max(col, 1), size.width), Math.min(Math.max(row, 1), size.height)];
  }
  function wheel(button, at) {
    socket.send(JSON.stringify(["stdin", "\\x1b[<" + button + ";" + at[0] + ";" + at[1] + "M"]));
  }
  window.addEventListener("load", () => {
    const el = document.getElementById("terminal");
    // The mouse leaves the screen: a move to a cell past its far edge (Textual drops
    // a move to a cell before the first one).
    const leave = () => setTimeout(() => {
      if (socket && socket.readyState === 1) {
        socket.send(JSON.stringify(["stdin", "\x1b[<35;9999;9999M"]));
      }
    }, 0);
    let swiped = false;
    el.addEventListener("touchstart", (event) => {
      swiped = false;
      last = event.touches.length === 1
        ? {x: event.touches[0].clientX, y: event.touches[0].clientY,
           start: {clientX: event.touches[0].clientX, clientY: event.touches[0].clientY}}
        : null;
    }, {passive: true});
    el.addEventListener("touchmove", (event) => {
      if (!last || !socket || !size || socket.readyState !== 1) return;
      // The cells are those of the drawn screen, not of the element around it, which
      // fills the page: its spare pixels put a swipe on the footer one row too high.
      const touch = event.touches[0],
        box = (el.querySelector(".xterm-screen") || el).getBoundingClientRect();
      const high = box.height / size.height, wide = box.width / size.width;
      // Where the swipe began, as a wheel turns where the mouse rests: the finger soon
      // leaves a one-row footer it swipes along.
      const at = cell(last.start, box);
      while (last.y - touch.clientY >= high) { wheel(65, at); last.y -= high; }
      while (touch.clientY - last.y >= high) { wheel(64, at); last.y += high; }
      while (last.x - touch.clientX >= wide * 2) { wheel(67, at); last.x -= wide * 2; }
      while (touch.clientX - last.x >= wide * 2) { wheel(66, at); last.x += wide * 2; }
      swiped = true;
      event.preventDefault();
    }, {passive: false});
    el.addEventListener("touchend", () => {
      last = null;
      if (swiped) leave();  // (where the finger came down stayed lit)
    }, {passive: true});
    if (window.matchMedia("(pointer: coarse)").matches) {
      // Nothing hovers on a touch screen, but a tap is a mouse that comes and stays:
      // once the tap's click is sent the mouse leaves, or what was tapped stayed lit
      // beside the focused button, two "selected".
      el.addEventListener("mouseup", leave, true);
    }
  });
})();
"""


def game_page(*, websocket_path: str, game: str, font_size: int) -> str:
    """The game: one terminal that fills the window, talking to the door by websocket."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(game)}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>{_STYLE}
/* Nothing of the terminal scrolls the page: xterm.js's hidden input, left where the
   cursor was before a window was made smaller, gave it scrollbars both ways. */
#terminal {{ position: absolute; inset: 0; overflow: hidden; }}
#ended {{ display: none; position: fixed; left: 0; right: 0; bottom: 0; z-index: 20;
  padding: .8rem 1rem; background: #12232d; border-top: 2px solid #5e0ba7;
  text-align: center; }}
#ended button {{ margin: 0 0 0 1rem; padding: .4rem 1rem; }}
body.-closed #ended {{ display: block; }}
/* The game gone, its last screen is dimmed under the word that it ended (the menu
   stayed lit as if it still answered). */
body.-closed #terminal {{ opacity: .4; pointer-events: none; }}
</style></head>
<body>
<div id="terminal" class="textual-terminal"
 data-session-websocket-url="{escape(websocket_path)}" data-font-size="{font_size}"></div>
<div id="ended" role="status">The game in this tab has ended: you quit, or the box
stopped or closed it (what it said, if it could, is above). A seat at a table is kept for you.
<button type="button" onclick="window.location.reload()">Play again</button></div>
<script>{TOUCH_SCROLL}</script>
<script>
/* textual.js takes the websocket's full address from the page */
(function () {{
  const el = document.getElementById("terminal");
  const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  el.dataset.sessionWebsocketUrl = scheme + window.location.host + el.dataset.sessionWebsocketUrl;
  /* keys go to the game from the start, with no click first */
  function focusTerminal(tries) {{
    const input = el.querySelector("textarea");
    if (input) input.focus();
    else if (tries < 50) setTimeout(() => focusTerminal(tries + 1), 20);
  }}
  window.addEventListener("load", () => focusTerminal(0));
}})();
</script>
</body></html>"""


def refused_page(reason: str) -> str:
    """What a visitor without the join link (or over a limit) reads."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hiddenhand</title><style>{_STYLE}</style></head>
<body><main><h1>hiddenhand</h1><p class="problem">{escape(reason)}</p></main></body></html>"""


__all__ = ["game_page", "name_page", "refused_page"]
