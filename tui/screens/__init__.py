"""The app's screens, one module each. ``TABLES`` maps a game id to its table screen.

Adding a game to the app is adding its table screen (and widgets) and one entry here:
the menu, the solo and host forms and the lobby offer exactly the games listed.
"""
