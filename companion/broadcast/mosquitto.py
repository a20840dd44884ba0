"""A Mosquitto broker set up for one event: users, passwords and ACLs (docs/broadcast.md).

`write_config` writes what a club night's broker needs: a password file (made with Debian's
`mosquitto_passwd`), an ACL file in which each table may publish only under its own name and
read only its own request topic, and the dashboard may read every table and write only
requests, and a `mosquitto.conf` that refuses anonymous clients. `Broker` runs such a broker as
a child process on a loopback port (the tests and `companion bench broadcast`).
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.broadcast.url import RESERVED, ROOT, BroadcastError, check_name

__all__ = ["DASHBOARD", "MONITOR", "Broker", "acl_text", "free_port", "write_config"]

DASHBOARD = "dashboard"
MONITOR = "monitor"
"""A read-only user that sees every topic of the event (the tests' leak sweep)."""


def acl_text(event: str) -> str:
    """The ACL file: tables by pattern (`%u` is the broker user), the dashboard by name."""
    base = f"{ROOT}/{event}/tables"
    return "\n".join([
        "# Each table publishes only under its own name, and reads only its own requests.",
        f"pattern write {base}/%u/actions",
        f"pattern write {base}/%u/state",
        f"pattern read {base}/%u/requests",
        "",
        "# The dashboard reads every table and writes only resend requests.",
        f"user {DASHBOARD}",
        f"topic read {base}/+/actions",
        f"topic read {base}/+/state",
        f"topic write {base}/+/requests",
        "",
        "# A read-only monitor of the whole event (optional).",
        f"user {MONITOR}",
        f"topic read {ROOT}/{event}/#",
        "",
    ])


def write_config(folder: Path, event: str, port: int, passwords: Mapping[str, str],
                 tls: Mapping[str, Path] | None = None, bind: str = "127.0.0.1",
                 run_as: str | None = None) -> Path:
    """`mosquitto.conf`, `passwd` and `acl` in `folder`; returns the config's path.

    `passwords` maps each broker user (every table, `dashboard`, optionally `monitor`) to its
    password; `tls` (cafile, certfile, keyfile) turns the listener into a TLS one; `run_as`
    keeps a broker started by root as that user (else it drops to `mosquitto`, who cannot read
    a private temporary folder).
    """
    check_name(event, "event")
    for user in passwords:
        if user not in RESERVED:
            check_name(user, "table")
    folder.mkdir(parents=True, exist_ok=True)
    passwd = folder / "passwd"
    passwd.write_text("".join(f"{user}:{secret}\n" for user, secret in passwords.items()))
    passwd.chmod(0o600)
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    subprocess.run([tool, "-U", str(passwd)], check=True, capture_output=True)
    (folder / "acl").write_text(acl_text(event))
    lines = [f"listener {port} {bind}", "allow_anonymous false",
             f"password_file {passwd}", f"acl_file {folder / 'acl'}",
             "persistence false", "max_queued_messages 100000", "log_dest stderr",
             "log_type error", "log_type warning"]
    if run_as:
        lines.append(f"user {run_as}")
    for key, path in (tls or {}).items():
        lines.append(f"{key} {path}")
    config = folder / "mosquitto.conf"
    config.write_text("\n".join(lines) + "\n")
    return config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Broker:
    """A mosquitto child process on a loopback port; `kill()` and `start()` for fault tests."""

    config: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def for_event(cls, folder: Path, event: str, passwords: Mapping[str, str],
                  tls: Mapping[str, Path] | None = None) -> Broker:
        """A broker on a free loopback port, run as the current user (not started)."""
        port = free_port()
        config = write_config(folder, event, port, passwords, tls,
                              run_as=getpass.getuser())
        return cls(config, port)

    def start(self, timeout: float = 10.0) -> Broker:
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(binary).exists():
            raise BroadcastError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        log = (self.config.parent / "mosquitto.log").open("ab")
        self.process = subprocess.Popen([binary, "-c", str(self.config)], stdout=log,
                                        stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BroadcastError(f"mosquitto exited: see {self.config.parent}/mosquitto.log")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise BroadcastError(f"mosquitto did not listen on port {self.port}")

    def kill(self) -> None:
        """SIGKILL: the broker dies without saving or saying goodbye."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
