"""The app's widgets, one module each; they take attributes and post messages."""
