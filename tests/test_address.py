"""Where the companion serves and where the phones reach it (`companion.address`): a port that
cannot be bound is one sentence, an address for the phones must be http(s)."""

from __future__ import annotations

import socket

import pytest

from companion.address import PortUnavailable, check_port, public_url, reachable_host
from companion.userdata import lan_address


def test_a_port_in_use_is_said_with_what_to_do():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(PortUnavailable, match=rf"^port {port} on 127.0.0.1 cannot be used "
                           r"\(.+\): is another companion serve running\? Choose another with "
                           r"--port$"):
            check_port("127.0.0.1", port)
    check_port("127.0.0.1", port)  # free again


def test_the_phones_reach_the_given_address_or_the_one_served_on():
    assert public_url("https://table.example/", "0.0.0.0", 8000) == "https://table.example"
    assert public_url(None, "127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert public_url(None, "0.0.0.0", 8000) == f"http://{lan_address()}:8000"
    assert reachable_host("::") == lan_address() and reachable_host("10.0.0.2") == "10.0.0.2"


@pytest.mark.parametrize("given", ["ftp://table:8000", "192.168.1.20:8000", "http://"])
def test_an_address_that_is_not_http_is_refused(given):
    with pytest.raises(ValueError, match=rf"--public-url '{given}' is not an http\(s\) address"):
        public_url(given, "0.0.0.0", 8000)
