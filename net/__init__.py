"""hiddenhand's network layer: protocol, host, client and discovery (built in its own issue)."""
