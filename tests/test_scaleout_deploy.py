"""The scale-out deployment (issue 14 item 4): API replicas that only queue jobs and separate
`attest worker`s, sharing the uploads volume. Structure checks like tests/test_deploy_files.py."""

from __future__ import annotations

import yaml

from tests.test_deploy_files import DEPLOY, _k8s, _pod_spec


def _mounts(container: dict) -> dict[str, str]:
    return {m["mountPath"]: m["name"] for m in container["volumeMounts"]}


def test_k8s_worker_deployment_shares_the_uploads_volume_with_the_api():
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
    claims = set()
    for deployment in (api, worker):
        pod = _pod_spec(deployment)
        volumes = {v["name"]: v for v in pod["volumes"]}
        volume = volumes[_mounts(pod["containers"][0])[config["ATTEST_UPLOADS_DIR"]]]
        claims.add(volume["persistentVolumeClaim"]["claimName"])
    assert len(claims) == 1
    pvc = docs[("PersistentVolumeClaim", claims.pop())]
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    assert "worker.yaml" in kustomization["resources"]


def test_compose_runs_two_api_replicas_and_two_workers_on_one_uploads_volume():
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    apis = [services["attest"], services["attest-2"]]
    worker = services["attest-worker"]
    assert worker["command"] == ["attest", "worker"] and worker["deploy"]["replicas"] == 2
    for service in (*apis, worker):
        env = service["environment"]
        assert env["ATTEST_ELASTICSEARCH_URL"] == "http://elasticsearch:9200"
        assert env["ATTEST_INGEST_IN_API"] == "false"
        assert f"uploads:{env['ATTEST_UPLOADS_DIR']}" in service["volumes"]
    assert {api["ports"][0] for api in apis} == {"127.0.0.1:8000:8000", "127.0.0.1:8001:8000"}


def test_workers_annotate_in_parallel_with_one_embedding_thread_each():
    """bench/ingest_parallel.py: 2 workers / 1 worker reached 2.07 only with both settings."""
    from ingest.settings import Settings

    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    container = _pod_spec(_k8s()[("Deployment", "attest-worker")])["containers"][0]
    k8s_env = {e["name"]: e["value"] for e in container["env"]}
    for env in (services["attest-worker"]["environment"], k8s_env):
        settings = Settings(**{k.removeprefix("ATTEST_").lower(): v for k, v in env.items()
                               if k in ("ATTEST_INGEST_NLP_PROCESSES", "ATTEST_EMBED_THREADS")})
        assert settings.ingest_nlp_processes == settings.ingest_workers == 2
        assert settings.embed_threads == 1
    assert "ATTEST_INGEST_NLP_PROCESSES" not in services["attest"]["environment"]  # APIs only queue
