"""The help of the commands that take ``--option``: every game's table options.

The list comes from the engine's own option list, so it imports every game and the
options form; it is made only when the help is shown, not for every run (a solo table
would wait for those imports before its first frame). Help text is wrapped here, with
``textwrap``, and printed as it stands by argparse's public
``RawDescriptionHelpFormatter``: the options list keeps one option a line, each wrapped
under its own indent, where argparse's own filling would run them into one paragraph.
"""

from __future__ import annotations

import argparse
import shutil
import textwrap
from collections.abc import Callable
from typing import Any, NoReturn

from tui.cli_values import settable_options
from tui.games import HOSTED_PRESETS, PRESETS

OPTIONS_HEADING = "table options (--option NAME=VALUE, repeatable):"


class Parser(argparse.ArgumentParser):
    """An argument parser whose error is two lines: what was wrong, and where the help
    is (argparse's own printed the whole usage first: a command with many options put
    thirteen lines over a one-line mistake)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No option by a prefix of its name: "--game" was taken for "--games".
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n(every option: {self.prog} --help)\n")


class CommandParser(Parser):
    """A subcommand's parser; with ``epilog_from`` set, its help ends with the text that
    function makes, made the first time the help is shown.

    Such a parser is given ``formatter_class=argparse.RawDescriptionHelpFormatter``: its
    description and epilog are wrapped here, to the width argparse wraps the rest to.
    """

    epilog_from: Callable[[], str] | None = None
    #: What ``epilog_from`` made, before wrapping (the terminal may be another width later).
    epilog_text: str | None = None

    def format_help(self) -> str:
        """The help, with the description and the made epilog wrapped to the terminal."""
        if self.epilog_from is not None:
            if self.epilog_text is None:
                self.epilog_text = self.epilog_from()
            width = help_width()
            if self.description:
                self.description = fill_paragraph(self.description, width)
            self.epilog = fill_lines(self.epilog_text, width)
        return super().format_help()


def help_width() -> int:
    """The width argparse's help formatter wraps text to: the terminal's, less 2."""
    return max(shutil.get_terminal_size().columns - 2, 11)


def fill_paragraph(text: str, width: int) -> str:
    """``text`` as one paragraph, wrapped to ``width`` as argparse wraps a description
    (so wrapping it again, at another width, gives what wrapping the original would)."""
    return textwrap.fill(" ".join(text.split()), width)


def fill_lines(text: str, width: int) -> str:
    """Each line of ``text`` wrapped to ``width`` on its own, under its own indent, its
    further lines two spaces deeper: a list stays one item a line."""
    filled = []
    for line in text.splitlines():
        body = line.lstrip(" ")
        lead = " " * (len(line) - len(body))
        filled.append(textwrap.fill(body, width, initial_indent=lead,
                                    subsequent_indent=lead + "  "))
    return "\n".join(filled)


def options_epilog(seats: int = 4) -> str:
    """Every game's table options for ``--option NAME=VALUE``, with the values each
    takes and its default, from the engine's own option list (ranges that follow the
    seat count are given for ``seats`` seats; seat numbers up to the game's largest
    table). What the app fills in itself (Get It!'s Level X record) is no option for
    people, and is not listed."""
    # Every game and the options form: loaded only when the help is shown (see above).
    import engine
    from tui.widgets.options_form import describe_value

    lines = [OPTIONS_HEADING]
    for game_id in engine.GAMES:
        spec = engine.GAMES[game_id]
        lines.append(f"  {spec.name} (--game {game_id}):")
        for option in settable_options(spec):
            if option.kind == "bool":
                values = "on|off"
            elif option.kind == "choice":
                values = "|".join(str(c) for c in option.choices)
            elif option.kind == "seat":
                values = f"1..{spec.max_seats}|none"  # (a seat at the largest table)
            else:
                bounds = option.bounds(seats)
                values = f"{bounds[0]}..{bounds[1]}" if bounds else "a number"
                values += "".join(f"|{'none' if c is None else c}" for c in option.choices)
            # (A value as typed after "=": "timer=60", where the lobby reads "60 s".)
            default = (str(option.default) if option.name == "timer"
                       else describe_value(option, option.default))
            if option.kind == "seat":
                default = "none" if option.default is None else str(option.default + 1)
            preset = PRESETS.get(game_id, {})
            if option.name in preset:  # what a person's table starts with instead
                default += f"; solo and the app's forms: {preset[option.name]}"
            if option.name in HOSTED_PRESETS:
                default += f"; 'host' and the app's LAN tables: {HOSTED_PRESETS[option.name]}"
            lines.append(f"    {option.name}={values} (default {default}): {option.help}")
    return "\n".join(lines)


class Version(argparse.Action):
    """``--version``: the release and the wire protocol it speaks (looked up only when
    asked: the app's start imports neither)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "print the release and the protocol version, then exit"
                 ) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from net.wire.framing import PROTOCOL_VERSION

        try:
            release = version("hiddenhand")
        except PackageNotFoundError:  # (run from a source tree that was never installed)
            release = "(not installed)"
        print(f"hiddenhand {release}, protocol {PROTOCOL_VERSION}")
        parser.exit()
