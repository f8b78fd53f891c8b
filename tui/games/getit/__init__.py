"""Get It! in the app: its table screen, seat cards, sand timer, summary and records."""
