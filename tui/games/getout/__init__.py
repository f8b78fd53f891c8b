"""GET OUT! in the app: its table screen, its cards, its call pile and its round summary."""
