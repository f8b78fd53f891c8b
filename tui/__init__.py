"""hiddenhand's terminal user interface and command line."""
