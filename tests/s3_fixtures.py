"""An S3-compatible object store for tests: moto's standalone server (``ThreadedMotoServer``,
PyPI ``moto[server]``), run in this process on a free port of 127.0.0.1.

The object store is outside the project (in production: AWS S3, MinIO, Ceph, ...). moto stands
in for it at the protocol level: boto3 talks to it over a real socket with real S3 requests
(signed PUT/GET/HEAD/LIST/DELETE), exactly as to MinIO, so nothing inside Attest is mocked or
patched. Credentials reach boto3 through the standard AWS environment variables, as in a
deployment. moto keeps its buckets in process memory shared by every server it starts, so each
test makes its own bucket, and a stopped server restarted on the same port still has them
(which is how the outage tests take the store away and bring it back).

Import the fixtures into a test module: ``from tests.s3_fixtures import s3_server, ...``.
"""

from __future__ import annotations

import socket
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

REGION = "us-east-1"
ACCESS_KEY = "attest-test-access-key"
SECRET_KEY = "attest-test-secret-key"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class S3Server:
    """One moto server on a fixed port that can be stopped (an outage) and started again."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._server: Any = None

    def start(self) -> None:
        from moto.server import ThreadedMotoServer

        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self._server.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    @property
    def running(self) -> bool:
        return self._server is not None

    def client(self) -> Any:
        import boto3
        from botocore.config import Config

        return boto3.client(
            "s3", endpoint_url=self.endpoint, region_name=REGION,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
            config=Config(s3={"addressing_style": "path"}),
        )

    def new_bucket(self) -> str:
        name = f"attest-test-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        return sorted(item["Key"] for page in pages for item in page.get("Contents", ()))


def aws_env(tmp_path: Path) -> dict[str, str]:
    """The standard AWS credential chain pointed at the test store's keys, with no shared
    config or instance metadata of the host in the way."""
    return {
        "AWS_ACCESS_KEY_ID": ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": str(tmp_path / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def s3_overrides(server: S3Server, bucket: str) -> dict[str, Any]:
    """Settings for ATTEST_UPLOAD_STORE=s3 on the test server: one attempt and short timeouts,
    so an outage is reported at once."""
    return {
        "upload_store": "s3", "s3_endpoint_url": server.endpoint, "s3_bucket": bucket,
        "s3_region": REGION, "s3_timeout_seconds": 2.0, "s3_max_attempts": 1,
    }


def s3_env_vars(server: S3Server, bucket: str) -> dict[str, str]:
    """The same settings as ATTEST_* environment variables (for `attest worker` processes)."""
    return {f"ATTEST_{k.upper()}": str(v) for k, v in s3_overrides(server, bucket).items()}


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    server = S3Server()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_s3_server() -> Iterator[S3Server]:
    """A server of the test's own, which the test may stop and start (an outage)."""
    server = S3Server()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def s3_credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = aws_env(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env
