"""The deployment files agree with the code and with Kubernetes' schemas.

What is checked
---------------
1. Every manifest in ``deploy/k8s/`` validates (strict: unknown fields fail) against
   the Kubernetes JSON schemas that the ``kubernetes-validate`` package ships, so this
   runs offline.  KEDA and Prometheus Operator objects are validated against their CRDs'
   schemas in ``tests/deploy/test_schemas.py`` (with the ``kubectl kustomize`` build and the
   compose-spec check); here they are checked for what they mean (a ScaledObject targets an
   existing worker Deployment whose Celery command consumes the queue its triggers watch;
   ``tests/deploy/test_monitoring.py`` checks the PodMonitors, the rules and that every metric they
   and the KEDA queries name is exported).
2. Compose and Kubernetes run the same commands, on the ports ``shared/settings.py``
   defaults to, with probes on /livez (liveness, start-up) and /readyz
   (readiness, compose's healthchecks), Services and the nginx routes
   (tables by their id, the lobby sticky; the in-cluster router like compose's nginx) to the right process, and every variable production must set (rule below).
3. Each command compose runs really starts with the environment compose gives it.

Rule for environment variables (derived from the code, so it keeps up with new ones)
----------------------------------------------------------------------------------
The code's variables are every name read in a ``*.py`` under ``shared/`` or
``services/`` through ``os.environ.get("X", …)``, ``os.environ["X"]``, ``os.getenv("X", …)``,
``"X" in os.environ``, or a module-level helper that forwards its first parameter to one
of those (``_int("X", 8000)`` in ``shared/settings.py``).

* A variable is **required in production** when some read of it has no default at all
  (``os.environ["X"]``), or its default only works on a developer machine (the literal
  mentions ``localhost``/``127.0.0.1`` or says ``dev``/``change-me``), and always for
  ``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``.  Every container that runs our code
  (``python -m services.…``/``shared.…`` or ``celery -A services.…``) must get it, in
  compose and in Kubernetes.
* A variable read with a safe default (``LOG_LEVEL``), or with none where ``None`` means
  "off" (``os.environ.get("X")``), may be left out of the deploy files.
* A deploy file must not set, for our containers, a variable the code never reads:
  that is a typo or a leftover.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import requests
import yaml

from services.embedded import free_port
from tests.required_tools import NGINX
from tests.stack import Infra

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
COMPOSE_FILE = DEPLOY / "compose.yaml"
NGINX_CONF = DEPLOY / "nginx.conf"
SECRET_TEMPLATE = K8S / "secret.yaml"
CODE_DIRS = (ROOT / "shared", ROOT / "services")
SETTINGS = ROOT / "shared" / "settings.py"

ALWAYS_REQUIRED = frozenset({"DATABASE_URL", "REDIS_URL", "SECRET_KEY"})
DEV_ONLY_MARKERS = ("localhost", "127.0.0.1", "dev", "change-me")
CELERY_APP = ROOT / "services" / "ai_worker" / "app.py"
# Public paths and the service (``services.<name>``) that must answer them.
PUBLIC_ROUTES = {"/": "lobby", "/socket.io/": "lobby", "/game/socket.io/": "game"}
KUBERNETES_VERSION = kubernetes_validate.latest_version()
# Custom resources (KEDA, Prometheus Operator): no schema ships with kubernetes-validate.
CRD_GROUPS = ("keda.sh/", "monitoring.coreos.com/")

_OUR_COMMAND = re.compile(r"^(python3?\s+-m\s+(services|shared)\.|celery\s+-A\s+services\.)")


# --------------------------------------------------------------------------- code side


@dataclass(frozen=True)
class EnvRead:
    name: str
    default: ast.expr | None  # the default expression; None when the read has none
    safe_when_unset: bool  # False only for os.environ["X"]; os.environ.get("X") gives None, "off"
    where: str


@dataclass(frozen=True)
class _Module:
    """What decides whether a name in one module means the process environment."""

    bare_names: frozenset[str]  # ``environ``/``getenv`` imported with ``from os import …``
    constants: dict[str, str]  # module-level ``NAME = "TEXT"``, so os.environ.get(NAME) resolves


def _module_facts(tree: ast.Module) -> _Module:
    bare = {
        a.asname or a.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "os"
        for a in n.names
        if a.name in ("environ", "getenv")
    }
    constants = {
        t.id: n.value.value
        for n in tree.body
        if isinstance(n, ast.Assign | ast.AnnAssign)
        and isinstance(n.value, ast.Constant)
        and isinstance(n.value.value, str)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    return _Module(frozenset(bare), constants)


def _is_os_attr(node: ast.expr, attr: str, module: _Module) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == attr
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    ) or (isinstance(node, ast.Name) and node.id == attr and attr in module.bare_names)


def _env_call(node: ast.AST, module: _Module) -> tuple[ast.expr, ast.expr | None, bool] | None:
    """(key expression, default expression, read is safe without the variable) for an env read, else None."""
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        is_get = isinstance(func, ast.Attribute) and func.attr == "get" and _is_os_attr(func.value, "environ", module)
        if is_get or _is_os_attr(func, "getenv", module):
            default = node.args[1] if len(node.args) > 1 else None
            if default is None:
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
            # Without a default these return None: the code treats the variable as optional.
            return node.args[0], default, True
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and _is_os_attr(node.value, "environ", module)
    ):
        return node.slice, None, False
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.In)
        and _is_os_attr(node.comparators[0], "environ", module)
    ):
        return node.left, None, True
    return None


def _helpers(tree: ast.Module, module: _Module) -> set[str]:
    """Module-level functions that read the variable named by their first parameter."""
    found = set()
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or not fn.args.args:
            continue
        param = fn.args.args[0].arg
        for node in ast.walk(fn):
            read = _env_call(node, module)
            if read and isinstance(read[0], ast.Name) and read[0].id == param:
                found.add(fn.name)
    return found


def env_reads_in_source(source: str, where: str) -> list[EnvRead]:
    tree = ast.parse(source)
    module = _module_facts(tree)
    helpers = _helpers(tree, module)
    reads = []
    for node in ast.walk(tree):
        read = _env_call(node, module)
        if read is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
            default = node.args[1] if len(node.args) > 1 else None
            read = (node.args[0], default, default is not None) if node.args else None
        if read is None:
            continue
        key = read[0]
        if isinstance(key, ast.Name) and key.id in module.constants:
            key = ast.Constant(module.constants[key.id])
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            reads.append(EnvRead(key.value, read[1], read[2], f"{where}:{node.lineno}"))
    return reads


def code_env_reads() -> list[EnvRead]:
    reads = []
    for directory in CODE_DIRS:
        for path in sorted(directory.rglob("*.py")):
            reads += env_reads_in_source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return reads


def _literal_text(node: ast.expr) -> str:
    return " ".join(str(n.value) for n in ast.walk(node) if isinstance(n, ast.Constant))


def is_required(reads: list[EnvRead]) -> bool:
    """See the module docstring: no default, or a default that only works on a laptop."""
    for read in reads:
        if read.name in ALWAYS_REQUIRED or not read.safe_when_unset:
            return True
        if read.default is not None and any(m in _literal_text(read.default).lower() for m in DEV_ONLY_MARKERS):
            return True
    return False


def code_variables() -> tuple[set[str], set[str]]:
    """(every variable the code reads, those production must set)."""
    by_name: dict[str, list[EnvRead]] = {}
    for read in code_env_reads():
        by_name.setdefault(read.name, []).append(read)
    return set(by_name), {name for name, reads in by_name.items() if is_required(reads)}


def celery_queues_in_code() -> set[str]:
    """The queue names of every ``Queue(…)`` in the Celery app module (``interactive``, ``batch``)."""
    tree = ast.parse(CELERY_APP.read_text(encoding="utf-8"))
    constants = _module_facts(tree).constants
    queues = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Queue" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Name) and arg.id in constants:
                queues.add(constants[arg.id])
            elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                queues.add(arg.value)
    return queues


CELERY_QUEUES = frozenset(celery_queues_in_code())


def port_defaults() -> dict[str, int]:
    """``{"lobby": 8000, …}`` from the ``<SERVICE>_PORT`` reads with an int default in settings.py."""
    ports = {}
    for read in env_reads_in_source(SETTINGS.read_text(encoding="utf-8"), "settings.py"):
        name = read.name.removesuffix("_PORT").lower()
        if (
            read.name.endswith("_PORT")
            and isinstance(read.default, ast.Constant)
            and isinstance(read.default.value, int)
            # An HTTP service (python -m services.<name>), not another port (AI_WORKER_METRICS_PORT).
            and (ROOT / "services" / name / "__main__.py").exists()
        ):
            ports[name] = read.default.value
    return ports


# ------------------------------------------------------------------------ deploy side


def command_words(command: Any) -> list[str]:
    if command is None:
        return []
    return shlex.split(command) if isinstance(command, str) else [str(w) for w in command]


def runs_our_code(command: Any) -> bool:
    return bool(_OUR_COMMAND.match(" ".join(command_words(command))))


def python_service(command: Any) -> str | None:
    """``lobby`` for ``python -m services.lobby``; None for anything else."""
    m = re.match(r"^python3?\s+-m\s+services\.(\w+)$", " ".join(command_words(command)))
    return m.group(1) if m else None


def celery_queues(command: Any) -> set[str]:
    words = command_words(command)
    if not words or words[0] != "celery":
        return set()
    queues = set()
    for i, word in enumerate(words):
        if word in ("-Q", "--queues") and i + 1 < len(words):
            queues |= set(words[i + 1].split(","))
        elif word.startswith("--queues="):
            queues |= set(word.split("=", 1)[1].split(","))
    return queues


def entry_point(command: Any) -> str:
    """What a container runs, as a comparable name: ``services.lobby``, ``celery:interactive``."""
    if queues := celery_queues(command):
        return "celery:" + ",".join(sorted(queues))
    words = command_words(command)
    return words[2] if len(words) > 2 and words[1] == "-m" else " ".join(words)


def read_env_file(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key.strip()] = value.strip()
    return env


def compose_doc() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))


def compose_env(service: dict, base: Path = DEPLOY) -> dict[str, str]:
    env: dict[str, str] = {}
    env_files = service.get("env_file") or []
    for entry in [env_files] if isinstance(env_files, str | dict) else env_files:
        env.update(read_env_file(base / (entry["path"] if isinstance(entry, dict) else entry)))
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) if "=" in item else (item, "") for item in environment)
    env.update({k: "" if v is None else str(v) for k, v in environment.items()})
    return env


def our_compose_services(doc: dict) -> dict[str, dict]:
    return {name: svc for name, svc in doc["services"].items() if runs_our_code(svc.get("command"))}


def k8s_files() -> list[Path]:
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def k8s_docs() -> list[dict]:
    docs = []
    for path in k8s_files():
        docs += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    return docs


def by_kind(docs: list[dict], kind: str) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs if d.get("kind") == kind}


def pod_spec(workload: dict) -> dict:
    return workload["spec"]["template"]["spec"]


def workloads(docs: list[dict]) -> Iterator[dict]:
    yield from (d for d in docs if d.get("kind") in ("Deployment", "StatefulSet", "Job", "DaemonSet"))


def our_k8s_containers(docs: list[dict]) -> Iterator[tuple[dict, dict]]:
    for workload in workloads(docs):
        for container in pod_spec(workload).get("containers", []):
            if runs_our_code(container.get("command", []) + container.get("args", [])):
                yield workload, container


def k8s_container_env(container: dict, docs: list[dict]) -> tuple[dict[str, str], list[str]]:
    """(variables a container gets with their literal values, problems with its references)."""
    env: dict[str, str] = {}
    problems = []
    sources = {"configMapRef": by_kind(docs, "ConfigMap"), "secretRef": by_kind(docs, "Secret")}
    for entry in container.get("envFrom", []):
        for ref_kind, objects in sources.items():
            if ref_kind in entry:
                obj = objects.get(entry[ref_kind]["name"])
                if obj is None:
                    problems.append(
                        f"{container['name']}: envFrom {ref_kind} {entry[ref_kind]['name']} is not in deploy/k8s"
                    )
                    continue
                env.update({k: str(v) for k, v in (obj.get("data") or {}).items()})
                env.update({k: str(v) for k, v in (obj.get("stringData") or {}).items()})
    for var in container.get("env", []):
        env[var["name"]] = str(var.get("value", ""))
    return env, problems


def resolve_port(port: int | str, container: dict) -> int | None:
    if isinstance(port, int):
        return port
    return next((p["containerPort"] for p in container.get("ports", []) if p.get("name") == port), None)


# ----------------------------------------------------------------------------- checks


def env_problems(where: str, env: dict[str, str], readable: set[str], required: set[str]) -> list[str]:
    missing = sorted(required - set(env))
    unknown = sorted(set(env) - readable)
    problems = [f"{where}: does not set {name}, which production must set" for name in missing]
    problems += [f"{where}: sets {name}, which no code under shared/ or services/ reads" for name in unknown]
    return problems


def kubernetes_schema_problems(doc: dict) -> list[str]:
    try:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as e:
        path = ".".join(str(p) for p in e.path)
        return [f"{doc['kind']}/{doc['metadata']['name']}: {path}: {e.message}"]
    except kubernetes_validate.SchemaNotFoundError as e:
        return [e.message]
    return []


def keda_problems(docs: list[dict]) -> list[str]:
    problems = []
    deployments = by_kind(docs, "Deployment")
    services = by_kind(docs, "Service")
    secrets = by_kind(docs, "Secret")
    auths = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "TriggerAuthentication"}
    scaled = [d for d in docs if d.get("kind") == "ScaledObject"]
    watched: set[str] = set()
    for obj in scaled:
        name = obj.get("metadata", {}).get("name")
        if obj.get("apiVersion") != "keda.sh/v1alpha1":
            problems.append(f"ScaledObject {name}: apiVersion must be keda.sh/v1alpha1")
        target = (obj.get("spec") or {}).get("scaleTargetRef") or {}
        deployment = deployments.get(target.get("name"))
        if target.get("kind", "Deployment") != "Deployment" or deployment is None:
            problems.append(f"ScaledObject {name}: scaleTargetRef {target} names no Deployment in deploy/k8s")
            continue
        consumed = set().union(
            *(celery_queues(c.get("command", []) + c.get("args", [])) for c in pod_spec(deployment)["containers"])
        )
        triggers = obj["spec"].get("triggers") or []
        if not triggers:
            problems.append(f"ScaledObject {name}: no triggers")
        for trigger in triggers:
            meta = trigger.get("metadata") or {}
            problems += [f"ScaledObject {name}: trigger metadata {k} is not a string (the CRD wants strings)"
                         for k, v in meta.items() if not isinstance(v, str)]
            if trigger.get("type") == "prometheus":
                problems += prometheus_trigger_problems(name, meta, consumed)
                watched |= set(re.findall(r'queue="(\w+)"', meta.get("query", "")))
                continue
            if trigger.get("type") != "redis":
                problems.append(f"ScaledObject {name}: trigger type {trigger.get('type')!r} is neither redis nor prometheus")
            if meta.get("listName") not in CELERY_QUEUES:
                problems.append(
                    f"ScaledObject {name}: listName {meta.get('listName')!r} is no Celery queue {sorted(CELERY_QUEUES)}"
                )
            elif meta["listName"] not in consumed:
                problems.append(
                    f"ScaledObject {name}: watches {meta['listName']!r} but its Deployment consumes {sorted(consumed)}"
                )
            watched.add(meta.get("listName"))
            if "address" in meta and meta["address"].split(".")[0].split(":")[0] not in services:
                problems.append(f"ScaledObject {name}: address {meta['address']} is no Service in deploy/k8s")
            auth_ref = (trigger.get("authenticationRef") or {}).get("name")
            if auth_ref is not None:
                if auth_ref not in auths:
                    problems.append(f"ScaledObject {name}: authenticationRef {auth_ref} is not in deploy/k8s")
                    continue
                for ref in auths[auth_ref]["spec"].get("secretTargetRef", []):
                    secret = secrets.get(ref["name"])
                    if secret is None or ref["key"] not in {
                        **(secret.get("data") or {}),
                        **(secret.get("stringData") or {}),
                    }:
                        problems.append(
                            f"TriggerAuthentication {auth_ref}: secret {ref['name']}/{ref['key']} is not in deploy/k8s"
                        )
    problems += [f"no ScaledObject watches the Celery queue {q!r}" for q in sorted(CELERY_QUEUES - watched)]
    return problems


# The work a worker Deployment scales on: its queue's waiting tasks plus the ones its workers hold.
KEDA_WORK_METRICS = ("spielcenter_celery_queue_length", "spielcenter_ai_tasks_in_flight")


def prometheus_trigger_problems(name: str, meta: dict, consumed: set[str]) -> list[str]:
    """A Prometheus trigger sums waiting and in-flight tasks of exactly the queues its Deployment consumes."""
    problems = []
    query = meta.get("query", "")
    if not re.match(r"^https?://[\w.-]+(:\d+)?/?$", meta.get("serverAddress", "")):
        problems.append(f"ScaledObject {name}: prometheus trigger without a serverAddress URL")
    try:
        if float(meta.get("threshold", "")) <= 0:
            raise ValueError
    except ValueError:
        problems.append(f"ScaledObject {name}: prometheus threshold {meta.get('threshold')!r} is no positive number")
    for metric in KEDA_WORK_METRICS:
        if metric not in query:
            problems.append(f"ScaledObject {name}: the query does not count {metric}")
    queues = set(re.findall(r'queue="(\w+)"', query))
    for metric in re.findall(r"spielcenter_\w+", query):
        if not re.search(rf'{metric}\{{[^}}]*queue="\w+"', query):
            problems.append(f"ScaledObject {name}: {metric} in the query is not narrowed to a queue")
    if not queues or queues - (consumed & CELERY_QUEUES):
        problems.append(f"ScaledObject {name}: the query counts queues {sorted(queues)}, its Deployment consumes"
                        f" {sorted(consumed)}")
    return problems
PROBE_PATHS = {"startupProbe": "/livez", "readinessProbe": "/readyz", "livenessProbe": "/livez"}


def k8s_port_problems(docs: list[dict], ports: dict[str, int]) -> list[str]:
    problems = []
    services = by_kind(docs, "Service")
    seen = set()
    for workload, container in our_k8s_containers(docs):
        svc = python_service(container.get("command", []) + container.get("args", []))
        if svc not in ports:
            continue
        seen.add(svc)
        env, _ = k8s_container_env(container, docs)
        port = int(env.get(f"{svc.upper()}_PORT", ports[svc]))
        where = f"{workload['kind']}/{workload['metadata']['name']}"
        if port not in [p["containerPort"] for p in container.get("ports", [])]:
            problems.append(f"{where}: no containerPort {port}")
        # Liveness asks the process alone, readiness its stores too (shared/health.py): a Redis
        # blip must take pods out of rotation, never restart them all.
        for probe, path in PROBE_PATHS.items():
            get = (container.get(probe) or {}).get("httpGet") or {}
            if get.get("path") != path or resolve_port(get.get("port", 0), container) != port:
                problems.append(f"{where}: {probe} is not GET {path} on port {port}")
        labels = workload["spec"]["template"]["metadata"].get("labels", {})
        fronting = [
            s
            for s in services.values()
            if s["spec"].get("selector") and s["spec"]["selector"].items() <= labels.items()
        ]
        if not any(
            p["port"] == port and resolve_port(p.get("targetPort", p["port"]), container) == port
            for s in fronting
            for p in s["spec"]["ports"]
        ):
            problems.append(f"{where}: no Service selects it with port and targetPort {port}")
    problems += [f"no Deployment runs python -m services.{svc}" for svc in sorted(set(ports) - seen)]
    return problems


# How each public route must be balanced: a table's sockets by the table id (one process
# serves a table), the lobby's by something sticky that is not the bare address alone.
ROUTE_BALANCING = {"/game/socket.io/": r"hash\s+\$arg_table\s+consistent",
                   "/socket.io/": r"hash\s+\$\w+\s+consistent|ip_hash", "/": r"hash\s+\$\w+\s+consistent|ip_hash"}


def nginx_routes(conf: str) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """(problems, public path → (upstream name, upstream body)) of an nginx site configuration."""
    problems = []
    upstreams = {m.group(1): m.group(2) for m in re.finditer(r"upstream\s+(\S+)\s*\{([^}]*)\}", conf)}
    locations = {m.group(1): m.group(2) for m in re.finditer(r"location\s+(/\S*)\s*\{([^}]*)\}", conf)}
    routes = {}
    for path in PUBLIC_ROUTES:
        m = re.search(r"proxy_pass\s+http://([\w-]+)\s*;", locations.get(path, ""))
        if m is None or m.group(1) not in upstreams:
            problems.append(f"nginx: location {path} does not proxy_pass to an upstream")
            continue
        block = upstreams[m.group(1)]
        if not re.search(rf"^\s*({ROUTE_BALANCING[path]})\s*;", block, re.M):
            problems.append(f"nginx: upstream {m.group(1)} (for {path}) is not balanced by {ROUTE_BALANCING[path]}")
        routes[path] = (m.group(1), block)
    if not re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade", conf):
        problems.append("nginx: WebSocket upgrade header is not passed on")
    # services/game/fanout/table_handover.py acts only on sockets placed by table.
    if not (re.search(r"proxy_set_header\s+X-Routed-By\s+\$routed_by", conf)
            and re.search(r"~\^/game/socket\\\.io/\s+table;", conf)):
        problems.append("nginx: the game sockets are not marked X-Routed-By: table")
    return problems, routes


def _balancing(block: str) -> list[str]:
    """An upstream's directives but its servers (how it balances)."""
    return [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("server ")]


def router_problems(docs: list[dict], compose_conf: str, ports: dict[str, int]) -> list[str]:
    """The in-cluster nginx (router.yaml) routes like deploy/nginx.conf, over headless Services of the right pods."""
    problems = []
    services = by_kind(docs, "Service")
    deployments = by_kind(docs, "Deployment")
    config = by_kind(docs, "ConfigMap").get("router-nginx")
    router = deployments.get("router")
    if config is None or router is None:
        return ["deploy/k8s: no router Deployment with its ConfigMap router-nginx"]
    if not any((v.get("configMap") or {}).get("name") == "router-nginx" for v in pod_spec(router).get("volumes", [])):
        problems.append("router: does not mount the ConfigMap router-nginx")
    public = [s for s in services.values() if s["spec"].get("type") == "LoadBalancer"]
    router_labels = router["spec"]["template"]["metadata"]["labels"]
    if len(public) != 1 or not public[0]["spec"]["selector"].items() <= router_labels.items():
        problems.append("deploy/k8s: the one LoadBalancer Service must select the router, and only it")
    conf = config["data"]["default.conf"]
    found, routes = nginx_routes(conf)
    problems += [f"router: {p}" for p in found]
    _, compose_routes = nginx_routes(compose_conf)
    for path, svc in PUBLIC_ROUTES.items():
        if path not in routes:
            continue
        name, block = routes[path]
        if path in compose_routes and _balancing(block) != _balancing(compose_routes[path][1]):
            problems.append(f"router: upstream {name} balances unlike deploy/nginx.conf's")
        for host, port in re.findall(r"^\s*server\s+([\w.-]+):(\d+)", block, re.M):
            target = services.get(host.split(".")[0])
            if target is None or target["spec"].get("clusterIP") != "None":
                problems.append(f"router: {path} → {host}, which is no headless Service (nginx must see the pods)")
                continue
            labels = [d["spec"]["template"]["metadata"].get("labels", {}) for d in deployments.values()
                      if any(python_service(c.get("command", [])) == svc for c in pod_spec(d)["containers"])]
            if not any(target["spec"]["selector"].items() <= lab.items() for lab in labels):
                problems.append(f"router: {path} → {host}, which does not select the pods of services.{svc}")
            if int(port) != ports[svc]:
                problems.append(f"router: {path} → {host}:{port}, but services.{svc} listens on {ports[svc]}")
    return problems


def nginx_problems(conf: str, compose: dict, ports: dict[str, int]) -> list[str]:
    """Each public route goes to an upstream balanced as ROUTE_BALANCING says whose servers are the right
    compose service."""
    problems, routes = nginx_routes(conf)
    ours = our_compose_services(compose)
    for path, (name, block) in routes.items():
        svc = PUBLIC_ROUTES[path]
        servers = re.findall(r"^\s*server\s+([\w.-]+):(\d+)", block, re.M)
        if not servers:
            problems.append(f"nginx: upstream {name} has no host:port server")
        for host, port in servers:
            target = ours.get(host)
            if target is None or python_service(target.get("command")) != svc:
                problems.append(
                    f"nginx: {path} → {host}:{port}, which is not the compose service running services.{svc}"
                )
            elif int(port) != int(compose_env(target).get(f"{svc.upper()}_PORT", ports[svc])):
                problems.append(f"nginx: {path} → {host}:{port}, but services.{svc} listens on {ports[svc]}")
    return problems


_URL_HOST_PORT = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([\w-]+)(?:\.[\w.-]+)?:(\d+)")


def url_problems(where: str, env: dict[str, str], listening: dict[str, set[int]]) -> list[str]:
    """A URL naming one of our services by host name must use a port that service listens on."""
    problems = []
    for key, value in sorted(env.items()):
        m = _URL_HOST_PORT.match(value)
        if m and m.group(1) in listening and int(m.group(2)) not in listening[m.group(1)]:
            problems.append(f"{where}: {key}={value} but {m.group(1)} listens on {sorted(listening[m.group(1)])}")
    return problems


def compose_listening(compose: dict, ports: dict[str, int]) -> dict[str, set[int]]:
    """Compose service name → the port its process listens on (our HTTP services only)."""
    listening = {}
    for name, svc in our_compose_services(compose).items():
        if (service := python_service(svc.get("command"))) in ports:
            listening[name] = {int(compose_env(svc).get(f"{service.upper()}_PORT", ports[service]))}
    return listening


def compose_port_problems(compose: dict, ports: dict[str, int]) -> list[str]:
    problems = []
    seen = set()
    for name, svc in our_compose_services(compose).items():
        service = python_service(svc.get("command"))
        if service not in ports:
            continue
        seen.add(service)
        port = int(compose_env(svc).get(f"{service.upper()}_PORT", ports[service]))
        if str(port) not in [str(p) for p in svc.get("expose", [])]:
            problems.append(f"compose {name}: does not expose {port}")
        test = " ".join(command_words((svc.get("healthcheck") or {}).get("test")))
        if f":{port}/readyz" not in test:
            problems.append(f"compose {name}: healthcheck does not GET :{port}/readyz")
    problems += [f"compose: no service runs python -m services.{s}" for s in sorted(set(ports) - seen)]
    return problems


# ------------------------------------------------------------------------------ tests


def assert_no_problems(problems: list[str]) -> None:
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", k8s_files(), ids=lambda p: p.name)
def test_manifest_validates_against_kubernetes_schema(path: Path) -> None:
    docs = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    assert docs, f"{path.name} holds no manifest"
    problems = [p for d in docs if not d["apiVersion"].startswith(CRD_GROUPS) for p in kubernetes_schema_problems(d)]
    assert_no_problems(problems)


def test_keda_scaled_objects_target_the_celery_workers() -> None:
    assert_no_problems(keda_problems(k8s_docs()))


def test_kustomization_lists_every_manifest_but_the_secret_template() -> None:
    """The placeholder secrets must never be applied by accident; everything else must be."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    assert sorted(kustomization["resources"]) == sorted(p.name for p in k8s_files() if p != SECRET_TEMPLATE)
    assert all("CHANGE-ME" in v for s in by_kind(k8s_docs(), "Secret").values() for v in s["stringData"].values())


def test_every_workload_container_has_resources_and_names_exist() -> None:
    docs = k8s_docs()
    namespaces = set(by_kind(docs, "Namespace"))
    problems = []
    for workload in workloads(docs):
        for c in pod_spec(workload)["containers"]:
            res = c.get("resources") or {}
            if not (
                res.get("requests", {}).keys() >= {"cpu", "memory"}
                and res.get("limits", {}).keys() >= {"cpu", "memory"}
            ):
                problems.append(f"{workload['metadata']['name']}/{c['name']}: cpu/memory requests and limits")
            problems += k8s_container_env(c, docs)[1]
    problems += [
        f"{d['kind']}/{d['metadata']['name']}: namespace {d['metadata'].get('namespace')!r} is not defined"
        for d in docs
        if d["kind"] != "Namespace" and d["metadata"].get("namespace") not in namespaces
    ]
    assert_no_problems(problems)


def test_code_reads_the_core_settings() -> None:
    """Guards the extraction itself: if it finds nothing, every env check would pass vacuously."""
    readable, required = code_variables()
    assert ALWAYS_REQUIRED <= required
    assert {"PUBLIC_URL", "LOG_LEVEL", "LOBBY_PORT"} <= readable
    assert "LOG_LEVEL" not in required
    assert port_defaults().keys() >= {"lobby", "game", "rating"}
    assert CELERY_QUEUES == {"interactive", "batch"}


def test_compose_sets_exactly_variables_the_code_reads() -> None:
    readable, required = code_variables()
    ours = our_compose_services(compose_doc())
    assert ours, "compose runs none of our entry points"
    problems = [
        p for name, svc in ours.items() for p in env_problems(f"compose {name}", compose_env(svc), readable, required)
    ]
    assert_no_problems(problems)


def test_kubernetes_sets_exactly_variables_the_code_reads() -> None:
    readable, required = code_variables()
    docs = k8s_docs()
    containers = list(our_k8s_containers(docs))
    assert containers, "deploy/k8s runs none of our entry points"
    problems = []
    for workload, container in containers:
        env, _ = k8s_container_env(container, docs)
        problems += env_problems(f"{workload['kind']}/{workload['metadata']['name']}", env, readable, required)
    assert_no_problems(problems)


def test_compose_and_kubernetes_run_the_same_entry_points() -> None:
    """Same commands word for word, so the start-up test below covers both."""
    compose = {
        entry_point(s.get("command")): command_words(s.get("command"))
        for s in our_compose_services(compose_doc()).values()
    }
    k8s = {
        entry_point(c.get("command", []) + c.get("args", [])): command_words(c.get("command", []) + c.get("args", []))
        for _, c in our_k8s_containers(k8s_docs())
    }
    assert compose == k8s
    assert {f"celery:{q}" for q in CELERY_QUEUES} <= compose.keys()
    assert {f"services.{s}" for s in port_defaults()} <= compose.keys()


def test_compose_ports_and_healthchecks_match_settings() -> None:
    assert_no_problems(compose_port_problems(compose_doc(), port_defaults()))


def test_urls_between_services_use_their_ports() -> None:
    """E.g. RATING_URL=http://rating:8002 in compose and Kubernetes."""
    compose = compose_doc()
    listening = compose_listening(compose, port_defaults())
    problems = [
        p
        for name, svc in our_compose_services(compose).items()
        for p in url_problems(f"compose {name}", compose_env(svc), listening)
    ]
    docs = k8s_docs()
    services = {name: {p["port"] for p in svc["spec"]["ports"]} for name, svc in by_kind(docs, "Service").items()}
    for workload, container in our_k8s_containers(docs):
        problems += url_problems(
            f"{workload['kind']}/{workload['metadata']['name']}", k8s_container_env(container, docs)[0], services
        )
    assert_no_problems(problems)


def test_nginx_routes_tables_and_lobby_to_the_right_services() -> None:
    assert_no_problems(nginx_problems(NGINX_CONF.read_text(encoding="utf-8"), compose_doc(), port_defaults()))


def test_kubernetes_ports_probes_and_services_match_settings() -> None:
    assert_no_problems(k8s_port_problems(k8s_docs(), port_defaults()))


def test_kubernetes_router_routes_like_the_compose_nginx() -> None:
    assert_no_problems(router_problems(k8s_docs(), NGINX_CONF.read_text(encoding="utf-8"), port_defaults()))


def test_routing_checks_reject_address_hashing_for_tables() -> None:
    conf = NGINX_CONF.read_text(encoding="utf-8")
    by_address = conf.replace("hash $arg_table consistent;", "ip_hash;")
    assert any("upstream game" in p for p in nginx_problems(by_address, compose_doc(), port_defaults()))
    docs = k8s_docs()
    config = by_kind(docs, "ConfigMap")["router-nginx"]
    config["data"]["default.conf"] = config["data"]["default.conf"].replace("hash $arg_table consistent;", "ip_hash;")
    assert any("upstream game" in p for p in router_problems(docs, conf, port_defaults()))


# Paths of the game service's HTTP routes (services/game/http_routes.py, review_routes.py) and
# lobby paths beside them: behind nginx, GAME_URL is the public URL.
GAME_HTTP_PATHS = ("/api/games/12", "/api/games/12/record.txt", "/api/games/12/review", "/api/games/live",
                   "/api/my-games")
LOBBY_HTTP_PATHS = ("/api/games/hexagon/preview", "/api/my-games/statistics", "/api/me", "/")


def http_route_problems(conf: str, where: str) -> list[str]:
    """The game service's HTTP paths reach an upstream of the game service, the lobby's do not."""
    regexes = [(m.group(1), m.group(2)) for m in re.finditer(r"location\s+~\s+(\S+)\s*\{([^}]*)\}", conf)]
    problems = []
    for path in (*GAME_HTTP_PATHS, *LOBBY_HTTP_PATHS):
        hit = next((body for regex, body in regexes if re.search(regex, path)), None)
        upstream = re.search(r"proxy_pass\s+http://([\w-]+)", hit or "")
        to_game = upstream is not None and upstream.group(1).startswith("game")
        if to_game != (path in GAME_HTTP_PATHS):
            problems.append(f"{where}: {path} reaches {'the game service' if to_game else 'the lobby'}")
    return problems


def test_game_service_http_routes_reach_it() -> None:
    conf = NGINX_CONF.read_text(encoding="utf-8")
    router = by_kind(k8s_docs(), "ConfigMap")["router-nginx"]["data"]["default.conf"]
    assert_no_problems(http_route_problems(conf, "nginx.conf") + http_route_problems(router, "router.yaml"))
    assert http_route_problems(conf.replace("my-games)$", "my-games/.*)$"), "x")


def test_the_deploy_nginx_config_is_accepted_by_nginx(tmp_path: Path) -> None:
    """The compose file's nginx.conf, with local servers (bench.nginx_router), passes ``nginx -t``."""
    from bench.nginx_router import NginxRouter

    nginx = NGINX.path()
    router = NginxRouter(free_port(), ["http://127.0.0.1:1"], ["http://127.0.0.1:2", "http://127.0.0.1:3"],
                         tmp_path / "nginx")
    check = subprocess.run([nginx, "-t", "-c", str(router.conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_redis_persists_and_never_evicts() -> None:
    redis = compose_doc()["services"]["redis"]
    words = command_words(redis["command"])
    assert "--appendonly" in words and words[words.index("--appendonly") + 1] == "yes"
    assert "noeviction" in words
    k8s_redis = pod_spec(by_kind(k8s_docs(), "StatefulSet")["redis"])["containers"][0]
    assert {"--appendonly", "noeviction"} <= set(k8s_redis["args"])


# ---------------------------------------------- the checks catch what they are meant to


def test_env_extraction_understands_every_read_form() -> None:
    source = (
        "import os\n"
        "def _int(name, default):\n    return int(os.environ.get(name, default))\n"
        "a = os.environ.get('A', 'x')\nb = os.environ['B']\nc = os.getenv('C')\n"
        "d = _int('D_PORT', 9000)\ne = 'E' in os.environ\nos.environ['F'] = '1'\n"
        "g = os.environ.get('G', 'http://localhost:1')\n"
    )
    reads = {r.name: r for r in env_reads_in_source(source, "x.py")}
    assert set(reads) == {"A", "B", "C", "D_PORT", "E", "G"}  # F is written, not read
    assert [n for n in sorted(reads) if is_required([reads[n]])] == ["B", "G"]


def test_env_check_flags_missing_and_unknown_variables() -> None:
    problems = env_problems(
        "svc",
        {"DATABASE_URL": "x", "LOG_LEVLE": "INFO"},
        {"DATABASE_URL", "LOG_LEVEL", "SECRET_KEY"},
        {"DATABASE_URL", "SECRET_KEY"},
    )
    assert problems == [
        "svc: does not set SECRET_KEY, which production must set",
        "svc: sets LOG_LEVLE, which no code under shared/ or services/ reads",
    ]


def test_schema_validation_rejects_a_misspelt_field() -> None:
    deployment = by_kind(k8s_docs(), "Deployment")["lobby"]
    container = pod_spec(deployment)["containers"][0]
    container["readinesProbe"] = container.pop("readinessProbe")
    assert kubernetes_schema_problems(deployment)


def test_keda_check_rejects_a_wrong_queue_and_target() -> None:
    docs = k8s_docs()
    scaled = [d for d in docs if d["kind"] == "ScaledObject"]
    redis_trigger = next(t for t in scaled[0]["spec"]["triggers"] if t["type"] == "redis")
    redis_trigger["metadata"]["listName"] = "celery"
    scaled[1]["spec"]["scaleTargetRef"]["name"] = "no-such-worker"
    assert len(keda_problems(docs)) >= 3  # bad list, bad target, and a queue nobody watches now


def test_keda_check_rejects_a_query_on_another_queue_or_without_the_work_in_flight() -> None:
    for change in (lambda q: q.replace('queue="interactive"', 'queue="batch"'),
                   lambda q: q.replace("spielcenter_ai_tasks_in_flight", "spielcenter_ai_tasks_started_total"),
                   lambda q: q.replace('{queue="interactive"}', "", 1)):
        docs = k8s_docs()
        scaled = by_kind(docs, "ScaledObject")["worker-interactive"]
        trigger = next(t for t in scaled["spec"]["triggers"] if t["type"] == "prometheus")
        trigger["metadata"]["query"] = change(trigger["metadata"]["query"])
        assert keda_problems(docs), trigger["metadata"]["query"]
    docs = k8s_docs()
    trigger = next(t for t in by_kind(docs, "ScaledObject")["worker-batch"]["spec"]["triggers"]
                   if t["type"] == "prometheus")
    trigger["metadata"]["threshold"] = 4  # a number, where the CRD wants a string
    assert any("not a string" in p for p in keda_problems(docs))


def test_url_check_rejects_a_wrong_port() -> None:
    assert url_problems(
        "x", {"RATING_URL": "http://rating:8000", "PUBLIC_URL": "https://example.org:8000"}, {"rating": {8002}}
    )
    assert not url_problems("x", {"REDIS_URL": "redis://:pw@redis.ns.svc.cluster.local:6379/0"}, {"redis": {6379}})


def test_port_checks_reject_a_wrong_port() -> None:
    ports = {**port_defaults(), "lobby": 8999}
    assert any("8999" in p for p in k8s_port_problems(k8s_docs(), ports))
    assert any("8999" in p for p in compose_port_problems(compose_doc(), ports))
    assert any("8999" in p for p in nginx_problems(NGINX_CONF.read_text(encoding="utf-8"), compose_doc(), ports))


# ------------------------------------------------------ the deployed commands really run


def _local_command(words: list[str]) -> list[str]:
    """The container's command for this machine: the venv's interpreter for python and celery."""
    if words[0] in ("python", "python3"):
        return [sys.executable, *words[1:]]
    if words[0] == "celery":
        return [sys.executable, "-m", "celery", *words[1:]]
    return words


def _wait_started(process: subprocess.Popen, log: Path, url: str | None, deadline: float) -> str | None:
    """None once the process answers ``url`` with 200 (without a URL: logs Celery's "ready."), else why not."""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"exited with {process.returncode}"
        if url is None:
            if " ready." in log.read_text(errors="replace"):
                return None
        else:
            try:
                if requests.get(url, timeout=1).status_code == 200:
                    return None
            except requests.RequestException:
                pass
        time.sleep(0.2)
    return "did not become ready"


def test_compose_commands_start_with_the_deploy_environment(infra: Infra, log_dir: Path) -> None:
    """Each command of compose.yaml (the same as the Kubernetes ones), run with the environment
    compose gives it (spielcenter.env + the URLs, here of the test's PostgreSQL and Redis) and a
    free port: the migration exits 0, HTTP services answer /healthz with 200, workers serve /metrics.
    Catches a misspelt module or Celery option and a setting the code rejects."""
    processes: list[tuple[str, subprocess.Popen, Path, str | None]] = []
    problems = []
    try:
        for name, svc in our_compose_services(compose_doc()).items():
            env = {**os.environ, **compose_env(svc)}
            env.update(DATABASE_URL=infra.database_url, REDIS_URL=infra.redis_url, SECRET_KEY="deploy-test")
            url = None
            if (service := python_service(svc.get("command"))) in port_defaults():
                port = free_port()
                env[f"{service.upper()}_PORT"] = str(port)
                url = f"http://127.0.0.1:{port}/healthz"
            elif celery_queues(svc.get("command")):  # a worker: ready once its main process serves /metrics
                port = free_port()
                env["AI_WORKER_METRICS_PORT"] = str(port)
                url = f"http://127.0.0.1:{port}/metrics"
            log = log_dir / f"deploy_{name}.log"
            with open(log, "wb") as out:
                process = subprocess.Popen(
                    _local_command(command_words(svc["command"])),
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            if svc.get("restart") == "no":  # a one-shot job (the migration) must finish cleanly
                try:
                    code = process.wait(120)
                except subprocess.TimeoutExpired:
                    process.kill()
                    code = "timeout"
                if code != 0:
                    problems.append(f"{name}: exit {code}: {log.read_text(errors='replace')[-2000:]}")
                continue
            processes.append((name, process, log, url))
        deadline = time.monotonic() + 120
        for name, process, log, url in processes:
            if (why := _wait_started(process, log, url, deadline)) is not None:
                problems.append(f"{name}: {why}: {log.read_text(errors='replace')[-2000:]}")
    finally:
        for _, process, _, _ in processes:
            if process.poll() is None:
                process.terminate()
        for _, process, _, _ in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    assert_no_problems(problems)
