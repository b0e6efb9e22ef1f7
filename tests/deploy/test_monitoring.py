"""The monitoring in deploy/ watches what the processes really export.

- Every metric that the Grafana dashboard, the alert rules and the KEDA queries name is
  exported by a real lobby, game service, rating service or Celery worker, scraped here.
- The cluster-wide gauges come from one lobby of two (the exporter lease in Redis), and
  the lease moves to another process when its holder is no longer scraped.
- The rules file and the PrometheusRule hold the same rules; ``promtool`` (Debian's
  ``prometheus`` package, installed by ``make test`` when missing) accepts them and the
  compose Prometheus configuration, and a unit test of the rules fires the datastore alert.
- The PodMonitors select the Deployments by a port they have; no ``prometheus.io``
  annotations are left.
"""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import yaml
from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily

from shared import scrape_metrics, settings
from tests.metrics_scrape import Samples, names, scrape, scrape_until, value
from tests.required_tools import PROMTOOL
from tests.stack import CeleryWorker, Infra, ServiceProcess, wait_until

ROOT = Path(__file__).resolve().parents[2]
MONITORING = ROOT / "deploy" / "monitoring"
RULES_FILE = MONITORING / "alerts.yml"
DASHBOARD = MONITORING / "grafana-dashboard.json"
PROMETHEUS_CONFIG = MONITORING / "prometheus.yml"
K8S = ROOT / "deploy" / "k8s"

# Series Prometheus makes itself, not a process (``up``), and PromQL words that look like names.
_NOT_EXPORTED = {"up"}
_SUFFIXES = ("_total", "_bucket", "_sum", "_count")


def k8s_docs(name: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((K8S / name).read_text(encoding="utf-8")) if d]


def rules() -> dict:
    return yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))


def dashboard_exprs() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return [t["expr"] for p in dashboard["panels"] if p["type"] != "row" for t in p["targets"]]


def rule_exprs() -> list[str]:
    return [rule["expr"] for group in rules()["groups"] for rule in group["rules"]]


def keda_queries() -> list[str]:
    return [t["metadata"]["query"] for d in k8s_docs("keda.yaml") if d["kind"] == "ScaledObject"
            for t in d["spec"]["triggers"] if t["type"] == "prometheus"]


def metric_names(expr: str) -> set[str]:
    """The series an expression reads (our ``spielcenter_…`` and prometheus_client's ``process_…``)."""
    return set(re.findall(r"\b(?:spielcenter|process)_[a-z0-9_]+\b", expr))


def is_exported(name: str, exported: set[str]) -> bool:
    """``name`` is a series or the family of one (a counter's family drops ``_total``; an unobserved
    labelled histogram shows its family only)."""
    return name in exported or any(name.endswith(s) and name.removesuffix(s) in exported for s in _SUFFIXES)


@pytest.fixture(scope="module")
def exported(lobby: ServiceProcess, game_service: ServiceProcess, infra: Infra,  # noqa: F811
             log_dir: Path) -> Iterator[dict[str, Samples]]:
    """What each kind of process exports, scraped from real ones (the worker once its children are up)."""
    rating = ServiceProcess("services.rating", infra, "RATING_PORT", log_dir,
                            EVENT_CONSUMER_NAME=f"rating-monitoring-{uuid.uuid4().hex[:6]}").start()
    try:
        with CeleryWorker(infra, log_dir, queues="interactive,batch", concurrency=1) as worker:
            worker_samples = scrape_until(worker.metrics_url,
                                          lambda s: "spielcenter_ai_search_seconds_bucket" in names(s), 120)
            # The cluster-wide series: once the lobby and the rating service hold their leases.
            yield {"lobby": scrape_until(f"{lobby.url}/metrics",
                                         lambda s: "spielcenter_celery_queue_length" in names(s)),
                   "game": scrape(f"{game_service.url}/metrics"),
                   "rating": scrape_until(f"{rating.url}/metrics",
                                          lambda s: "spielcenter_rating_events_pending" in names(s)),
                   "worker": worker_samples}
    finally:
        rating.stop()


def test_every_metric_of_the_dashboard_rules_and_keda_queries_is_exported(exported: dict[str, Samples]) -> None:
    everything = set().union(*(names(samples) for samples in exported.values()))
    named = {
        "dashboard": set().union(*map(metric_names, dashboard_exprs())),
        "alert rules": set().union(*map(metric_names, rule_exprs())),
        "KEDA queries": set().union(*map(metric_names, keda_queries())),
    }
    assert all(named.values()) and len(named["dashboard"]) >= 15
    missing = {where: sorted(n for n in found - _NOT_EXPORTED if not is_exported(n, everything))
               for where, found in named.items()}
    assert missing == {where: [] for where in named}, missing
    # One prefix for everything of ours: no unprefixed series beside prometheus_client's own.
    ours = {n for n in everything if not n.startswith(("process_", "python_", "spielcenter_"))}
    assert ours == set(), ours
    # The worker's series exist from its start, at 0 (an alert sees the first failure).
    worker = exported["worker"]
    assert ("spielcenter_ai_tasks_failed_total", (("queue", "interactive"), ("task", "ai.move"))) in worker
    assert ("spielcenter_ai_tasks_failed_total", (("queue", "batch"), ("task", "ai.review_game"))) in worker
    assert value(worker, "spielcenter_ai_tasks_in_flight", queue="batch") == 0


def test_the_cluster_wide_gauges_come_from_one_lobby_of_two(lobby: ServiceProcess,  # noqa: F811
                                                            second_lobby: ServiceProcess) -> None:  # noqa: F811
    scrapes = [scrape(f"{p.url}/metrics") for p in (lobby, second_lobby)]
    for samples in scrapes:  # per-process series from both
        assert ("spielcenter_lobby_sockets", ()) in samples
        assert value(samples, "spielcenter_datastore_up", store="redis") == 1
        assert value(samples, "spielcenter_datastore_up", store="postgres") == 1
    with_queues = [("spielcenter_celery_queue_length", (("queue", "interactive"),)) in s for s in scrapes]
    with_games = ["spielcenter_games_running" in names(s) for s in scrapes]
    assert sorted(with_queues) == [False, True] and with_games == with_queues


class _Constant:
    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily("spielcenter_probe", "probe", value=1)


def test_the_exporter_lease_moves_when_its_holder_is_no_longer_scraped(infra: Infra) -> None:
    client = redis.Redis.from_url(infra.redis_url)
    group = f"probe-{uuid.uuid4().hex[:6]}"
    first = scrape_metrics.ExportedOnce(client, group, _Constant(), lease_ms=300, holder="first")
    second = scrape_metrics.ExportedOnce(client, group, _Constant(), lease_ms=60_000, holder="second")
    try:
        registry = CollectorRegistry(auto_describe=True)  # as the default registry the services use
        registry.register(second)  # registering does not take the lease
        assert len(list(first.collect())) == 1
        assert list(second.collect()) == []
        assert len(list(first.collect())) == 1  # the holder renews at each scrape
        # The first is no longer scraped: its lease runs out and the second takes over.
        wait_until(lambda: list(second.collect()), 5, "the second process to take the lease")
        assert list(first.collect()) == []
        # A process that stops cleanly gives the lease up at once.
        second.release()
        assert len(list(first.collect())) == 1
    finally:
        client.delete(scrape_metrics.LEASE_PREFIX + group)
        client.close()


def test_datastores_up_reports_a_failing_check_as_0() -> None:
    def broken() -> bool:
        raise OSError("connection refused")

    family = next(scrape_metrics.DatastoresUp({"postgres": lambda: True, "redis": broken}).collect())
    assert {s.labels["store"]: s.value for s in family.samples} == {"postgres": 1.0, "redis": 0.0}


def test_the_dashboard_loads_and_every_panel_queries_the_chosen_prometheus() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 30
    assert [v["name"] for v in dashboard["templating"]["list"] if v["type"] == "datasource"] == ["datasource"]
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])
    for panel in panels:
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"] and all(t["expr"].strip() and metric_names(t["expr"]) for t in panel["targets"])
        assert len({t["refId"] for t in panel["targets"]}) == len(panel["targets"])
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24 and grid["h"] > 0, panel["title"]
    # The "what to watch" signals each have a panel.
    wanted = ["spielcenter_game_move_seconds_bucket", "spielcenter_game_moves_refused_total",
              "spielcenter_ai_queue_wait_seconds_bucket", "spielcenter_ai_deadline_misses_total",
              "spielcenter_rating_events_pending", "spielcenter_lobby_sockets", "spielcenter_game_sockets",
              "spielcenter_datastore_up", "spielcenter_ai_tasks_in_flight", "spielcenter_celery_queue_length"]
    queried = set().union(*map(metric_names, dashboard_exprs()))
    assert [w for w in wanted if w not in queried] == []


def test_the_prometheus_rule_holds_the_rules_file_and_every_rule_is_complete() -> None:
    prometheus_rules = [d for d in k8s_docs("monitoring.yaml") if d["kind"] == "PrometheusRule"]
    assert len(prometheus_rules) == 1 and prometheus_rules[0]["spec"] == rules()
    alerts = [rule for group in rules()["groups"] for rule in group["rules"]]
    assert len({a["alert"] for a in alerts}) == len(alerts)
    for alert in alerts:
        assert alert.keys() >= {"alert", "expr", "for", "labels", "annotations"}, alert.get("alert")
        assert alert["labels"]["severity"] in ("info", "warning", "critical")
        assert alert["annotations"]["summary"]
    covered = set().union(*map(metric_names, rule_exprs()))
    for signal in ("spielcenter_game_move_seconds_bucket", "spielcenter_game_moves_refused_total",
                   "spielcenter_ai_queue_wait_seconds_bucket", "spielcenter_ai_deadline_misses_total",
                   "spielcenter_rating_events_pending", "spielcenter_lobby_sockets", "spielcenter_datastore_up"):
        assert signal in covered, signal


def test_pod_monitors_select_the_processes_by_a_port_they_have() -> None:
    deployments = {}
    for path in K8S.glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc and doc["kind"] == "Deployment":
                deployments[doc["metadata"]["name"]] = doc
    scraped = set()
    for monitor in [d for d in k8s_docs("monitoring.yaml") if d["kind"] == "PodMonitor"]:
        assert monitor["metadata"]["namespace"] == "spielcenter"
        (expression,) = monitor["spec"]["selector"]["matchExpressions"]
        assert expression["key"] == "app.kubernetes.io/name" and expression["operator"] == "In"
        for name in expression["values"]:
            pod = deployments[name]["spec"]["template"]
            assert pod["metadata"]["labels"][monitor["spec"]["jobLabel"]] == name
            ports = {p["name"]: p["containerPort"] for c in pod["spec"]["containers"] for p in c.get("ports", [])}
            for endpoint in monitor["spec"]["podMetricsEndpoints"]:
                assert endpoint["port"] in ports, (name, endpoint["port"])
                assert endpoint["path"] == "/metrics"
                if endpoint["port"] == "metrics":
                    assert ports["metrics"] == settings.load().ai_worker_metrics_port
            assert "prometheus.io/scrape" not in (pod["metadata"].get("annotations") or {})
            scraped.add(name)
    assert scraped == {"lobby", "game", "rating", "worker-interactive", "worker-batch"}
    # The compose Prometheus scrapes the same jobs (the rules' `up{job=…}` names them).
    jobs = {j["job_name"] for j in yaml.safe_load(PROMETHEUS_CONFIG.read_text(encoding="utf-8"))["scrape_configs"]}
    assert jobs == scraped


def test_promtool_accepts_the_rules_and_the_compose_configuration(tmp_path: Path) -> None:
    promtool = PROMTOOL.path()
    checked = subprocess.run([promtool, "check", "rules", str(RULES_FILE)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The container path of the rules file, pointed at the file here.
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text(encoding="utf-8"))
    config["rule_files"] = [str(RULES_FILE)]
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    checked = subprocess.run([promtool, "check", "config", str(tmp_path / "prometheus.yml")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_promtool_rule_test_fires_the_datastore_alert_after_its_for(tmp_path: Path) -> None:
    """Series as the processes export them; the alerts fire after their ``for`` and not before."""
    promtool = PROMTOOL.path()
    datastore = next(r for g in rules()["groups"] for r in g["rules"] if r["alert"] == "SpielcenterDatastoreDown")
    store_annotations = {k: v.replace("{{ $labels.store }}", "redis") for k, v in datastore["annotations"].items()}
    unit = {
        "rule_files": [str(RULES_FILE)],
        "evaluation_interval": "1m",
        "tests": [{
            "interval": "1m",
            "input_series": [
                {"series": 'spielcenter_datastore_up{store="redis",job="lobby",instance="a"}', "values": "1 0 0 0"},
                {"series": 'spielcenter_datastore_up{store="redis",job="game",instance="b"}', "values": "1 1 1 1"},
                {"series": 'spielcenter_datastore_up{store="postgres",job="lobby",instance="a"}', "values": "1 1 1 1"},
            ],
            "alert_rule_test": [
                {"eval_time": "1m", "alertname": "SpielcenterDatastoreDown", "exp_alerts": []},
                {"eval_time": "3m", "alertname": "SpielcenterDatastoreDown",
                 "exp_alerts": [{"exp_labels": {"severity": "critical", "store": "redis"},
                                 "exp_annotations": store_annotations}]},
            ],
        }],
    }
    path = tmp_path / "alerts_test.yml"
    path.write_text(yaml.safe_dump(unit, sort_keys=False))
    tested = subprocess.run([promtool, "test", "rules", str(path)], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stdout + tested.stderr
