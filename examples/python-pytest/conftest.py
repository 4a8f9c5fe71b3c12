"""Fixtures for testing Python code against edge-doubles, as a user's suite would.

`edge` starts `edge-doubles api serve --port 0 --clock manual` once for the session and talks to its
test-support endpoints (`/_edge-doubles/...`); every test starts from a reset (buckets, zones and
queues emptied, fault rules and the call log cleared). `s3` is boto3 on R2's S3 host name for the
served account, `cf` the Cloudflare library on the served `/client/v4`.

The command is `$EDGE_DOUBLES` (default `npx edge-doubles`), so the suite runs against an installed
package or, as this repository's own test does, its source.
"""
import json
import os
import re
import shlex
import socket
import subprocess
import urllib.error
import urllib.request

import boto3
import CloudFlare
import pytest
from botocore.config import Config


class EdgeDoubles:
    """A running `edge-doubles api serve`: where it listens and its test-support calls."""

    def __init__(self, process, lines):
        self.process = process
        self.base_url = re.search(r"listening on (\S+)", lines[0]).group(1)
        self.origin = self.base_url.rsplit("/client/v4", 1)[0]
        self.port = int(self.origin.rsplit(":", 1)[1])
        self.account = next(l.split()[1] for l in lines if l.startswith("account "))
        self.zones = {l.split()[1]: l.split()[2] for l in lines if l.startswith("zone ")}

    def call(self, method, path, body=None):
        """One test-support request; returns the JSON answer, raises for a 4xx/5xx one."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.origin}/_edge-doubles/{path}", data=data, method=method)
        try:
            with urllib.request.urlopen(request) as response:
                return json.load(response)
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} /_edge-doubles/{path}: {e.code} {e.read().decode()}") from None

    def reset(self):
        return self.call("POST", "reset")

    def seed(self, **parts):
        return self.call("POST", "seed", parts)

    def fault(self, **rule):
        return self.call("POST", "faults", rule)["id"]

    def log(self, **filters):
        query = "&".join(f"{k}={urllib.request.quote(str(v))}" for k, v in filters.items())
        return self.call("GET", f"log?{query}" if query else "log")

    def advance(self, *, days=0, seconds=0):
        return self.call("POST", "clock", {"advance": int((days * 86400 + seconds) * 1000)})


def start(command):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    lines = []
    # The server prints what it serves, then its test support and "state: ..." last.
    for line in process.stdout:
        lines.append(line.strip())
        if line.startswith("state:"):
            return EdgeDoubles(process, lines)
    raise RuntimeError(f"edge-doubles exited before serving: {lines}")


@pytest.fixture(scope="session")
def edge():
    command = shlex.split(os.environ.get("EDGE_DOUBLES", "npx edge-doubles"))
    server = start(command + ["api", "serve", "--port", "0", "--clock", "manual", "--zone", "example.com", "--bucket", "photos"])
    # R2's S3 host names for the account reach this server, as `curl --resolve` would send them.
    real = socket.getaddrinfo
    suffix = f"{server.account}.r2.cloudflarestorage.com"
    socket.getaddrinfo = lambda host, *a, **k: real("127.0.0.1" if str(host).endswith(suffix) else host, *a, **k)
    yield server
    socket.getaddrinfo = real
    server.process.terminate()
    server.process.wait(timeout=10)


@pytest.fixture(autouse=True)
def fresh(edge):
    """Every test starts from empty buckets and zones, no fault rules and an empty log."""
    edge.reset()
    yield


@pytest.fixture
def s3(edge):
    return boto3.client(
        "s3",
        endpoint_url=f"http://{edge.account}.r2.cloudflarestorage.com:{edge.port}",
        region_name="auto",
        aws_access_key_id="test-key-id",
        aws_secret_access_key="test-secret",
        config=Config(s3={"addressing_style": "path"}, retries={"mode": "standard", "max_attempts": 3}),
    )


@pytest.fixture
def cf(edge):
    return CloudFlare.CloudFlare(token="test-token", base_url=edge.base_url)
