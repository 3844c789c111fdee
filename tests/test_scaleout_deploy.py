"""The scale-out deployment (issue 14 item 4): API replicas that only queue jobs and separate
`attest worker`s, sharing uploads through an S3-compatible bucket (MinIO in docker-compose), with
no shared volume. Structure checks like tests/test_deploy_files.py."""

from __future__ import annotations

import yaml

from tests.s3_fixtures import s3_server  # noqa: F401 - fixture
from tests.test_deploy_files import DEPLOY, _k8s, _pod_spec


def _mounts(container: dict) -> dict[str, str]:
    return {m["mountPath"]: m["name"] for m in container["volumeMounts"]}


S3_SETTINGS = {"upload_store", "s3_endpoint_url", "s3_bucket", "s3_region"}


def _settings(env: dict[str, str]):
    """The Settings an environment gives (only the upload settings and those they need)."""
    from ingest.settings import Settings

    names = {f"ATTEST_{n.upper()}" for n in (*S3_SETTINGS, "s3_prefix", "uploads_dir")}
    return Settings(**{k.removeprefix("ATTEST_").lower(): v for k, v in env.items() if k in names})


def _secret_env(container: dict) -> dict[str, tuple[str, str]]:
    return {e["name"]: (e["valueFrom"]["secretKeyRef"]["name"], e["valueFrom"]["secretKeyRef"]["key"])
            for e in container.get("env", []) if "valueFrom" in e}


def test_k8s_api_and_workers_share_uploads_through_the_bucket_not_a_volume():
    docs = _k8s()
    api, worker = docs[("Deployment", "attest-api")], docs[("Deployment", "attest-worker")]
    assert worker["spec"]["replicas"] >= 2
    assert worker["spec"]["selector"]["matchLabels"] != api["spec"]["selector"]["matchLabels"]
    spec = _pod_spec(worker)
    assert spec["securityContext"]["runAsNonRoot"] is True
    container = spec["containers"][0]
    assert container["command"] == ["attest", "worker"]
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    refs = {(k, v["name"]) for e in container["envFrom"] for k, v in e.items()}
    assert refs == {("configMapRef", "attest-config"), ("secretRef", "attest-secrets")}
    config = docs[("ConfigMap", "attest-config")]["data"]
    assert config["ATTEST_INGEST_IN_API"] == "false"
    settings = _settings(config)
    assert (settings.upload_store, settings.s3_bucket) == ("s3", "attest-uploads")
    credentials = docs[("Secret", "attest-s3-credentials")]["stringData"]
    for deployment in (api, worker):
        pod = _pod_spec(deployment)
        main = pod["containers"][0]
        # Credentials come from the Secret, through boto3's standard variables (optional: a pod
        # role may replace them); never from the ConfigMap.
        assert _secret_env(main) == {name: ("attest-s3-credentials", name) for name in credentials}
        assert all(e["valueFrom"]["secretKeyRef"]["optional"] for e in main["env"] if "valueFrom" in e)
        # The staging directory is the pod's own: nothing is shared between pods.
        volumes = {v["name"]: v for v in pod["volumes"]}
        staging = volumes[_mounts(main)[config["ATTEST_UPLOADS_DIR"]]]
        assert "emptyDir" in staging and "persistentVolumeClaim" not in staging
    assert not [k for k in config if k.startswith("AWS_")]
    assert ("PersistentVolumeClaim", "attest-uploads") not in docs
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    assert {"worker.yaml", "secret.yaml"} <= set(kustomization["resources"])


def test_compose_runs_two_api_replicas_and_two_workers_on_one_minio_bucket():
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    apis = [services["attest"], services["attest-2"]]
    worker = services["attest-worker"]
    assert worker["command"] == ["attest", "worker"] and worker["deploy"]["replicas"] == 2
    minio = services["minio"]
    assert minio["image"].startswith("minio/minio:") and minio["command"][:2] == ["server", "/data"]
    init = services["attest-s3-init"]
    assert init["depends_on"] == {"minio": {"condition": "service_healthy"}}
    for service in (*apis, worker):
        env = service["environment"]
        assert env["ATTEST_ELASTICSEARCH_URL"] == "http://elasticsearch:9200"
        assert env["ATTEST_INGEST_IN_API"] == "false"
        settings = _settings(env)
        assert (settings.upload_store, settings.s3_endpoint_url, settings.s3_bucket) == (
            "s3", "http://minio:9000", init["environment"]["ATTEST_S3_BUCKET"])
        assert env["AWS_ACCESS_KEY_ID"] == minio["environment"]["MINIO_ROOT_USER"]
        assert env["AWS_SECRET_ACCESS_KEY"] == minio["environment"]["MINIO_ROOT_PASSWORD"]
        assert not [v for v in service.get("volumes", []) if v.startswith("uploads:")]
        assert service["depends_on"]["attest-s3-init"] == {"condition": "service_completed_successfully"}
    assert {api["ports"][0] for api in apis} == {"127.0.0.1:8000:8000", "127.0.0.1:8001:8000"}


def test_workers_annotate_in_parallel_with_one_core_each():
    """Each of a worker's two threads annotates in its own pool process and embeds on one core
    (bench/ingest_parallel.py), so a worker pod's two cores are its two threads'."""
    from ingest.settings import Settings

    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    container = _pod_spec(_k8s()[("Deployment", "attest-worker")])["containers"][0]
    k8s_env = {e["name"]: e["value"] for e in container["env"] if "value" in e}
    for env in (services["attest-worker"]["environment"], k8s_env):
        settings = Settings(**{k.removeprefix("ATTEST_").lower(): v for k, v in env.items()
                               if k in ("ATTEST_INGEST_NLP_PROCESSES", "ATTEST_INGEST_WORKER_CORES")})
        assert settings.ingest_nlp_processes == settings.ingest_workers == 2
        assert settings.ingest_worker_cores == 1
        assert "ATTEST_EMBED_THREADS" not in env  # the query model's setting: unused by a worker
    assert "ATTEST_INGEST_NLP_PROCESSES" not in services["attest"]["environment"]  # APIs only queue


def test_compose_bucket_init_creates_the_bucket_once_and_is_idempotent(s3_server, tmp_path):
    """attest-s3-init's script, run as compose runs it, against moto's standalone S3 server
    (tests/s3_fixtures.py: a stand-in for MinIO, which is outside the project)."""
    import os
    import subprocess
    import sys

    from tests.s3_fixtures import aws_env

    init = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]["attest-s3-init"]
    assert init["command"][:2] == ["python", "-c"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATTEST_", "AWS_"))}
    env.update({k: str(v) for k, v in init["environment"].items()})
    env.update(aws_env(tmp_path))
    bucket = f"{init['environment']['ATTEST_S3_BUCKET']}-{os.getpid()}"
    env.update({"ATTEST_S3_ENDPOINT_URL": s3_server.endpoint, "ATTEST_S3_BUCKET": bucket})
    for _ in range(2):  # a second `up` finds the bucket and leaves it
        done = subprocess.run([sys.executable, "-c", init["command"][2]], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
    assert bucket in [b["Name"] for b in s3_server.client().list_buckets()["Buckets"]]
