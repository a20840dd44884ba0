"""No stalled request holds the table (issue 35), against a real `companion serve`.

The attack the issue found: connections that send a request's headers with
`Content-Length: 1000` and then only `{`, to the pairing claim (which needs no token). Each held
a worker thread while it waited on its body; seventeen from one address, or 24 from 24, and the
referee's view and pause timed out for as long as they stayed open. Here 30 such connections,
kept open (each one the server drops is opened again at once, each it refuses unread a quarter
of a second later), from one address and then from 30, leave the referee's view and pause
answering under 100 ms at the 95th percentile; every slow body is dropped by the server (408)
or refused before it is read (429) within seconds; and a connection that never finishes its
headers is closed too. The streams' ranks are tested with the unpaired streams' cap full: the
referee's and the table display's streams are still served.

Against the server before issue 35 every test here fails: the referee's requests time out
(15 s) under the 30 addresses, no slow body is ever dropped, and a half-sent header is kept.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import free_port, wait_for

from companion.web.asgi import BODY_SECONDS, HEADERS_SECONDS, SHARE, UNKNOWN_STREAMS

ROOT = Path(__file__).parents[1]
REFEREE = "sesame"
SLOW_BODY = (b"POST /api/pair/claim HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
LIMIT_MS = 100.0
"""The referee's view and pause under attack, at the 95th percentile: under 100 ms, or on a
machine so loaded that the referee alone is slower than a third of that, under `LOADED` times
its pace alone, measured for as long just before (the server before issue 35: 15 s, never)."""
LOADED = 3
"""On this project's shared 2-core machine at a load of 30, the referee's p95 alone swings
between 70 and 200 ms from one measurement to the next."""
REFUSED_AGAIN = 0.25
"""Seconds before a connection refused unread (429) is opened again: the attack keeps 30
connections open, rather than turning into a flood of new connections (another attack)."""


@pytest.fixture
def served(tmp_path) -> Iterator[int]:
    """`companion serve` as a user starts it (a new Sekigahara game), on a loopback port."""
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp_path / "games.sqlite"), "--new", "sekigahara",
         "--referee-token", REFEREE],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        wait_for(lambda: _answers(port), 30, "serve to answer", alive=child)
        yield port
    finally:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()


def _answers(port: int) -> bool:
    try:
        return _referee(port, "GET", "/api/view")[0] == 200
    except OSError:
        return False


def _referee(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, float]:
    """A request of the referee's screen on a new connection: (status, milliseconds)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        headers = {"Authorization": f"Bearer {REFEREE}", "Content-Type": "application/json"}
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status, (time.perf_counter() - started) * 1000
    finally:
        connection.close()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


class SlowBodies:
    """`count` connections sending a slow body each, from `addresses` (127.0.0.x), kept open:
    each the server answers (and closes) is opened again at once. Notes each answer's status
    and how long after its headers it came."""

    def __init__(self, port: int, count: int, addresses: list[str]) -> None:
        self.port, self.addresses = port, addresses
        self.answers: list[tuple[int, float]] = []
        self.opened = 0
        """Connections that have sent their headers and the body's first byte."""
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._keep, args=(n,), daemon=True)
                        for n in range(count)]
        for thread in self.threads:
            thread.start()

    def _keep(self, n: int) -> None:
        source = self.addresses[n % len(self.addresses)]
        while not self.stopping.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=20,
                                              source_address=(source, 0)) as sock:
                    sock.sendall(SLOW_BODY)
                    sent = time.monotonic()
                    self.opened += 1
                    answer = sock.recv(200)
                    if answer:
                        self.answers.append((int(answer.split(b" ", 2)[1]),
                                             time.monotonic() - sent))
                    while sock.recv(4096):  # until the server closes it
                        pass
                if answer.startswith(b"HTTP/1.1 4") and not answer.startswith(b"HTTP/1.1 408"):
                    self.stopping.wait(REFUSED_AGAIN)  # refused unread: soon, not in a spin
            except OSError:
                if self.stopping.wait(0.05):
                    return

    def stop(self) -> None:
        self.stopping.set()


def _referee_while(port: int, seconds: float) -> dict[str, list[float]]:
    """The referee's view and pause, in turn, for `seconds` (20 of each at least)."""
    spent: dict[str, list[float]] = {"view": [], "pause": []}
    deadline = time.monotonic() + seconds
    paused = False
    while time.monotonic() < deadline or len(spent["pause"]) < 20:
        status, ms = _referee(port, "GET", "/api/view")
        assert status == 200
        spent["view"].append(ms)
        paused = not paused
        status, ms = _referee(port, "POST", "/api/pause", {"paused": paused})
        assert status == 200
        spent["pause"].append(ms)
    return spent


@pytest.mark.slow
@pytest.mark.timed
@pytest.mark.parametrize("addresses", [1, 30], ids=["one address", "30 addresses"])
def test_thirty_slow_bodies_never_stall_the_referee(served, addresses):
    port = served
    alone = _referee_while(port, BODY_SECONDS + 2)  # the machine's pace now, unattacked
    limit = {what: max(LIMIT_MS, LOADED * _p95(times)) for what, times in alone.items()}
    sources = [f"127.0.0.{2 + n}" for n in range(addresses)]
    attack = SlowBodies(port, 30, sources)
    try:
        # The attack is in place: its connections have sent their headers and a byte.
        wait_for(lambda: attack.opened >= 30, 10, "the 30 slow bodies to be sent")
        spent = _referee_while(port, BODY_SECONDS + 2)
        # Every slow body is answered (refused unread, or dropped once late), none held.
        wait_for(lambda: any(status == 408 for status, _ in attack.answers), 2 * BODY_SECONDS,
                 "a slow body to be dropped")
    finally:
        attack.stop()
    for what, times in spent.items():
        assert _p95(times) < limit[what], \
            f"the referee's {what}: p95 {_p95(times):.0f} ms ({_p95(alone[what]):.0f} alone)"
    assert {status for status, _ in attack.answers} <= {408, 429, 503}
    late = [after for status, after in attack.answers if status == 408]
    assert late and max(late) < BODY_SECONDS + 3, "slow bodies dropped within their deadline"
    if addresses == 1:  # a device without a token has two bodies read at once, no more
        assert sum(status == 429 for status, _ in attack.answers) >= 28


def test_a_request_whose_headers_never_end_is_closed(served):
    """Uvicorn waits for headers for ever; the server closes a connection that has not sent
    a whole request's headers within `HEADERS_SECONDS` (and the referee is served meanwhile)."""
    with socket.create_connection(("127.0.0.1", served), timeout=HEADERS_SECONDS + 10) as sock:
        sock.sendall(b"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started = time.monotonic()
        assert _referee(served, "GET", "/api/view")[0] == 200
        assert sock.recv(100) == b""  # closed, no answer
        assert time.monotonic() - started < HEADERS_SECONDS + 3


def _stream(port: int, source: str, token: str | None = None) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    path = "/stream" + (f"?token={token}" if token else "")
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return sock


def _status_and_view(sock: socket.socket) -> tuple[int, bool]:
    """A stream's status, and whether a view came on it (read until one has, or it closed)."""
    data = b""
    while not (data.startswith(b"HTTP/1.1 200") and b"event: view" in data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1]), b"event: view" in data


@pytest.mark.slow
def test_with_the_unpaired_streams_full_the_referee_and_the_table_display_are_served(served):
    """Issue 35: 1,000 idle streams without a token filled the one cap, and the referee's own
    stream, the table display's and every phone's got 503. Devices without a token now share
    500 streams (16 each); past that they get 503, and the referee's stream and the table
    display on the Pi's own screen (loopback, 127.0.0.1) are still served, with their view."""
    idle: list[socket.socket] = []
    try:
        for n in range(UNKNOWN_STREAMS):
            idle.append(_stream(served, f"127.0.0.{2 + n // SHARE}"))
        assert all(_status_and_view(sock) == (200, True) for sock in idle)
        refused = _stream(served, "127.0.0.200")
        assert _status_and_view(refused)[0] == 503
        refused.close()
        for source, token in (("127.0.0.201", REFEREE), ("127.0.0.1", None)):
            sock = _stream(served, source, token)
            assert _status_and_view(sock) == (200, True), (source, token)
            sock.close()
        status, ms = _referee(served, "GET", "/api/view")
        assert status == 200 and ms < 1000
    finally:
        for sock in idle:
            sock.close()
