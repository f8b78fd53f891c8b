"""Fuzz the app with what a hostile host could send: damaged updates, one field at a time.

For each game (a solo table, its bots held still) and for a lobby, the real app runs
headless and its last update from the host is taken as the good one. Every case damages
one field of it (a key removed, or set to None, a string, a huge number, a list, a map,
a list of the wrong length) or is another kind of message with junk in it. Each case
goes first through the app's check of a host's messages (``net.host_views``): refused
there, the app would leave the host saying where and what; let through, it is handed to
the app's client as if it had just arrived, and the app must show it and run on. An
exception that ends the app is a crash; the script then starts a new app and goes on.

    .venv/bin/python scripts/fuzz_host_frames.py [--kinds getout,gotfive,getit,lobby]

Prints per kind the cases, how many were refused, how many were shown, how many opened
a dialog (a summary: the damaged update said the round was over), and every crash with
where it happened; exits 1 if anything crashed or hung.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import copy
import faulthandler
import os
import random
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# Settings and the hosts' journals in a scratch directory, never the user's (its apps
# are closed by force: their journals would pile up in the real one, each read by the
# menu for a game to resume).
os.environ.setdefault("HIDDENHAND_CONFIG_DIR", tempfile.mkdtemp(prefix="hh-fuzz-"))
os.environ.setdefault("HIDDENHAND_DATA_DIR", os.environ["HIDDENHAND_CONFIG_DIR"])

from net.clock import ManualClock
from net.host_views import check_message
from net.wire.errors import ProtocolError
from tui.app import HiddenHandApp
from tui.screens.lobby import LobbyScreen
from tui.screens.table import TableScreen
from tui.session import Session
from tui.settings import Settings

GONE = object()  # (the key is removed)
VALUES = [GONE, None, "x", "", -1, 99, 10**18, 1.5, True, [], {}, ["x"], [None], [{}], {"a": 1}]
FEW = [GONE, None, "x", -1, 10**18, [], {}, ["x"], [None]]
#: Seconds a case may take before the script calls it a hang.
HANG = 60
Case = tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]

OTHER: list[dict[str, Any]] = [
    {"type": "chat", "name": "Bob", "seat": 1, "text": "x" * 60000},
    {"type": "chat", "name": ["x"], "seat": "a", "text": {"a": 1}},
    {"type": "chat", "name": "[/]", "seat": 1, "text": "[@click=app.quit]x[/]"},
    {"type": "frobnicate", "x": 1}, {"x": 1}, {"type": ["update"]},
    {"type": "error", "code": ["kicked"], "message": "x"},
    {"type": "error", "code": "weird", "message": "y" * 60000}, {"type": "error"},
    {"type": "error", "code": "weird", "message": "[/]"},
    {"type": "warning", "code": "idle", "idle_for": "x", "closes_in": [1]},
    {"type": "review", "x": 1}, {"type": "review_moves", "moves": "x"},
    {"type": "review_at", "at": "x", "view": 5}, {"type": "review_state", "state": "x"},
]


def put(path: list[Any], value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(msg: dict[str, Any]) -> dict[str, Any]:
        node = msg
        for part in path[:-1]:
            node = node[part]
        if value is GONE:
            del node[path[-1]]
        else:
            node[path[-1]] = copy.deepcopy(value)
        return msg
    return change


def words(value: Any) -> str:
    return "removed" if value is GONE else repr(value)[:30]


def cases_for(good: dict[str, Any], lobby: bool) -> list[Case]:
    out: list[Case] = []
    if not lobby:
        for key, value in (good.get("view") or {}).items():
            out += [(f"view.{key} = {words(v)}", put(["view", key], v)) for v in VALUES]
            if isinstance(value, dict):
                out += [(f"view.{key}.{k} = {words(v)}", put(["view", key, k], v))
                        for k in list(value)[:12] for v in FEW]
            if isinstance(value, list) and value:
                out += [(f"view.{key}[0] = {words(v)}", put(["view", key, 0], v)) for v in FEW]
                if isinstance(value[0], dict):
                    out += [(f"view.{key}[0].{k} = {words(v)}", put(["view", key, 0, k], v))
                            for k in value[0] for v in FEW]
                out.append((f"view.{key} five times", put(["view", key], value * 5)))
                out.append((f"view.{key} cut to one", put(["view", key], value[:1])))
        out += [(f"view = {words(v)}", put(["view"], v)) for v in ("x", 5, [], ["x"])]
        legal = good.get("legal") or []
        if legal:
            out += [(f"legal[0].{k} = {words(v)}", put(["legal", 0, k], v))
                    for k in legal[0] for v in FEW]
    for key in ("legal", "seat", "events", "notices", "table"):
        out += [(f"{key} = {words(v)}", put([key], v)) for v in VALUES]
    table = good.get("table") or {}
    out += [(f"table.{k} = {words(v)}", put(["table", k], v)) for k in table for v in VALUES]
    seats = table.get("seats") or []
    if seats:
        out += [(f"table.seats[0].{k} = {words(v)}", put(["table", "seats", 0, k], v))
                for k in seats[0] for v in FEW]
        out.append(("table.seats six times", put(["table", "seats"], seats * 6)))
    out += [(f"notices = [{n}]", put(["notices"], [n])) for n in (
        {"type": "configured", "changed": {"game": ["x"]}}, {"type": "game_over", "result": "x"},
        {"type": "renamed", "seat": "x", "name": 5}, {"type": 5})]
    out += [(f"a {m.get('type')!r} message", lambda _m, m=m: copy.deepcopy(m)) for m in OTHER]
    return out


def solo_app(game: str) -> HiddenHandApp:
    rng = random.Random(5)
    options = {"getit": {"timer": 0}}.get(game, {"first": 0})
    return HiddenHandApp(Settings(name="Ann", mdns_interfaces=["127.0.0.1"]), bind="127.0.0.1",
                         bot_delay=0.01, seed_source=lambda: rng.getrandbits(62),
                         clock=ManualClock(), solo={"game_id": game, "seats": 3,
                                                    "options": options})


async def until(pilot: Any, ready: Callable[[], Any], what: str) -> Any:
    for _ in range(1500):
        if value := ready():
            return value
        await pilot.pause(0.02)
    raise TimeoutError(what)


async def table_or_lobby(app: HiddenHandApp, pilot: Any, kind: str) -> Any:
    if kind != "lobby":
        return await until(pilot, lambda: isinstance(app.screen, TableScreen)
                           and app.screen.update and app.screen, "the table")
    host = await app.hosting.start(port=None)
    session = Session("Ann", host=host)
    await session.connect()
    await session.create("Ann's table", "getout", 3, {})
    app.attach(session)
    lobby = LobbyScreen(session)
    await app.push_screen(lobby)
    return await until(pilot, lambda: lobby.live and lobby.update is not None and lobby,
                       "the lobby")


def where(exc: BaseException) -> str:
    ours = [f for f in traceback.extract_tb(exc.__traceback__) if "site-packages" not in f.filename]
    last = ours[-1] if ours else traceback.extract_tb(exc.__traceback__)[-1]
    return f"{Path(last.filename).name}:{last.lineno}: {type(exc).__name__}: {exc}"[:200]


async def fuzz(kind: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"refused": [], "shown": [], "dialog": [], "crash": []}
    cases: list[Case] | None = None
    at = 0
    while cases is None or at < len(cases):
        app = HiddenHandApp(Settings(name="Ann", mdns_interfaces=["127.0.0.1"]),
                            bind="127.0.0.1") if kind == "lobby" else solo_app(kind)
        name = "starting the app"
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                screen = await table_or_lobby(app, pilot, kind)
                client = screen.session.client
                good = copy.deepcopy(client.latest)
                cases = cases if cases is not None else cases_for(good, kind == "lobby")
                while at < len(cases) and app.screen is screen:
                    name, change = cases[at]
                    at += 1
                    bad = change(copy.deepcopy(good))
                    try:
                        check_message(copy.deepcopy(bad), client.table)
                    except ProtocolError:
                        found["refused"].append(name)
                        continue
                    faulthandler.dump_traceback_later(HANG, exit=True, file=sys.__stderr__)
                    client._handle(bad)  # (as if it had just arrived)
                    for _ in range(4):
                        await pilot.pause(0.01)
                    if app.is_running and app.screen is screen:
                        client._handle(copy.deepcopy(good))
                        await pilot.pause(0.01)
                    faulthandler.cancel_dump_traceback_later()
                    if not app.is_running:
                        break  # (leaving the ``async with`` raises what ended it)
                    found["shown" if app.screen is screen else "dialog"].append(name)
        except Exception as exc:  # a crash: said, and a new app for the next case
            faulthandler.cancel_dump_traceback_later()
            found["crash"].append(f"{name}: {where(exc)}")
            if cases is None:
                raise
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="getout,gotfive,getit,lobby",
                        help="comma-separated: games, and 'lobby'")
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if bad := [k for k in kinds if k not in ("getout", "gotfive", "getit", "lobby")]:
        parser.error(f"unknown kind(s): {', '.join(bad)}")
    crashed = 0
    scratch = os.environ["HIDDENHAND_DATA_DIR"]
    if scratch == os.environ["HIDDENHAND_CONFIG_DIR"] and "hh-fuzz-" in scratch:
        atexit.register(shutil.rmtree, scratch, True)  # (ours: made above)
    for kind in kinds:
        found = asyncio.run(fuzz(kind))
        total = sum(len(v) for v in found.values())
        print(f"{kind}: {total} cases: {len(found['refused'])} refused, "
              f"{len(found['shown'])} shown, {len(found['dialog'])} opened a dialog, "
              f"{len(found['crash'])} crashed", flush=True)
        for line in found["crash"]:
            print(f"  crash: {line}")
        crashed += len(found["crash"])
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
