"""Host addresses as people type them: ``host:port``, ``[v6]:port`` or a bare IPv6 address.

The join screen and the command line read addresses with :func:`parse_address` and
write them back with :func:`show_address`; neither needs a connection for it. A server
that cannot listen says why with :func:`listen_error`; :func:`loopback` tells an address
only this computer reaches.
"""

from __future__ import annotations


def parse_address(text: str, default_port: int | None = None) -> tuple[str, int]:
    """Split ``host:port`` (``[v6]:port`` too, or a bare IPv6 address with the default
    port); raise ``ValueError`` in plain words for anything else."""
    text = text.strip()
    if not text:
        raise ValueError("type an address, like 192.168.1.20:4455")
    port_text: str | None
    if "://" in text:  # (a link pasted: "not host:port (an IPv6 address …)" told nothing)
        scheme = text.partition("://")[0]
        raise ValueError(f"address {text!r} is a {scheme}:// link: type only host:port, "
                         "like 192.168.1.20:4455")
    if text.startswith("["):
        close = text.find("]")
        if close < 0:
            raise ValueError(f"address {text!r} opens a [ that it does not close")
        host, rest = text[1:close], text[close + 1:]
        if rest and not rest.startswith(":"):
            raise ValueError(f"address {text!r} has {rest!r} after its ]")
        port_text = rest[1:] if rest else None
    elif text.count(":") > 1:
        from ipaddress import IPv6Address  # (only here: few addresses need it)

        try:
            IPv6Address(text)
        except ValueError:
            raise ValueError(
                f"address {text!r} is not host:port (an IPv6 address with a port goes in "
                "brackets, like [::1]:4455)"
            ) from None
        host, port_text = text, None
    else:
        host, sep, after = text.partition(":")
        port_text = after if sep else None
    if not host:
        raise ValueError(f"address {text!r} has no host name")
    if "[" in host or "]" in host:
        raise ValueError(f"address {text!r} has a stray bracket")
    if port_text is None:
        if default_port is None:
            raise ValueError(f"address {text!r} needs a port, like 192.168.1.20:4455")
        return host, default_port
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"port {port_text!r} in {text!r} is not a number") from None
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is outside 1..65535")
    return host, port


def show_address(host: str, port: int) -> str:
    """``host:port`` as a person types it back (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def listen_error(exc: OSError, port: int, bind: str | None, *, port_option: str = "--port",
                 bind_option: str = "--bind", unbound: str = "listen on all") -> str:
    """Why a server could not listen, in plain words (the OS's own text only as a last
    resort), naming the command's own options (``ssh-serve``'s web door has its
    ``--web-port``), and what leaving out ``bind_option`` does (``unbound``)."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is already in use on this computer (is another hiddenhand or "
                f"another server running?); pick another with {port_option}, or "
                f"{port_option} 0 for any")
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{bind} is not an address of this computer; leave out {bind_option} to {unbound}"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights here; pick one above 1023"
    return exc.strerror or str(exc)


def loopback(address: str | None) -> bool:
    """Whether ``address`` is one only this computer can reach (127.0.0.1, ::1)."""
    from ipaddress import ip_address

    try:
        return address is not None and ip_address(address).is_loopback
    except ValueError:
        return False
