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
</main></body></html>"""


def game_page(*, websocket_path: str, game: str, font_size: int) -> str:
    """The game: one terminal that fills the window, talking to the door by websocket."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(game)}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>{_STYLE}
#terminal {{ position: absolute; inset: 0; }}
#ended {{ display: none; position: fixed; left: 0; right: 0; bottom: 0; z-index: 20;
  padding: .8rem 1rem; background: #12232d; border-top: 2px solid #5e0ba7;
  text-align: center; }}
#ended button {{ margin: 0 0 0 1rem; padding: .4rem 1rem; }}
body.-closed #ended {{ display: block; }}
</style></head>
<body>
<div id="terminal" class="textual-terminal"
 data-session-websocket-url="{escape(websocket_path)}" data-font-size="{font_size}"></div>
<div id="ended" role="status">The game in this tab has ended.
<button type="button" onclick="window.location.reload()">Play again</button></div>
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
