"""A screen styled once as it opens, not twice."""

from __future__ import annotations

from textual import events


class StyledOnce:
    """Mixed into a screen (before ``Screen`` or ``ModalScreen``): its first resume, as it
    is pushed, does not restyle it.

    Textual restyles a screen and every widget on it each time the screen is resumed,
    the first time too, when every widget was styled as it mounted a moment before. On
    a lobby or a setup form (a hundred widgets and more: three games' options forms
    with their selects) that second styling cost more than the screen's first layout
    and drawing, and held up its first frame. Later resumes (back from another screen)
    restyle as usual: the app's look may have changed meanwhile.
    """

    #: Resumed at least once.
    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # (Textual calls this class's handler before ``Screen``'s own, which reads the flag.)
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
