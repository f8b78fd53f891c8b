"""Bots: players that see only what a human seat sees — its view and its legal actions."""

from engine.bots.random_bot import RandomBot

__all__ = ["RandomBot"]
