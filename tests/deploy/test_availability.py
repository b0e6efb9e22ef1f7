"""The manifests keep the game available through rollouts, drains and quiet hours.

- Every Deployment (lobby, game, rating, both workers, the router) has a PodDisruptionBudget that
  selects its pods and lets a drain evict one at a time (``maxUnavailable: 1``).
- Every Deployment spreads its replicas over nodes by a constraint whose selector matches its own
  pods; a hard one (``DoNotSchedule``) honours node taints, so nodes the pods cannot run on are no
  domain that holds replicas Pending.
- The game pod's grace covers its ``preStop`` pause and the hand-over (``HAND_OVER_S`` for its
  sockets to close, as long again for their last events, ``services/game/app.py``); compose's
  ``stop_grace_period`` the hand-over alone (compose has no pause).
- KEDA never scales the interactive (computer moves, hints) workers below one replica.

Each check is shown to fail on a broken copy.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import pytest

from services.game.app import HAND_OVER_S
from tests.deploy.test_deploy import (
    assert_no_problems,
    by_kind,
    celery_queues,
    compose_doc,
    k8s_docs,
    pod_spec,
    python_service,
)

HOSTNAME = "kubernetes.io/hostname"
INTERACTIVE_QUEUE = "interactive"


def _labels(deployment: dict) -> dict:
    return deployment["spec"]["template"]["metadata"].get("labels", {})


def _selects(selector: dict, labels: dict) -> bool:
    return bool(selector.get("matchLabels")) and selector["matchLabels"].items() <= labels.items() \
        and not selector.get("matchExpressions")


def disruption_budget_problems(docs: list[dict]) -> list[str]:
    problems = []
    budgets = by_kind(docs, "PodDisruptionBudget")
    for name, deployment in by_kind(docs, "Deployment").items():
        mine = [b for b in budgets.values() if _selects(b["spec"].get("selector", {}), _labels(deployment))]
        if len(mine) != 1:
            problems.append(f"Deployment/{name}: {len(mine)} PodDisruptionBudgets select its pods, not one")
        elif mine[0]["spec"].get("maxUnavailable") != 1 or "minAvailable" in mine[0]["spec"]:
            problems.append(f"Deployment/{name}: its PodDisruptionBudget is not maxUnavailable: 1")
    return problems


def spread_problems(docs: list[dict]) -> list[str]:
    problems = []
    for name, deployment in by_kind(docs, "Deployment").items():
        constraints = pod_spec(deployment).get("topologySpreadConstraints", [])
        by_node = [c for c in constraints if c.get("topologyKey") == HOSTNAME]
        if not by_node:
            problems.append(f"Deployment/{name}: no topology spread over {HOSTNAME}")
        for constraint in constraints:
            where = f"Deployment/{name}: spread over {constraint.get('topologyKey')}"
            if not _selects(constraint.get("labelSelector", {}), _labels(deployment)):
                problems.append(f"{where} does not select its own pods")
            if "pod-template-hash" not in constraint.get("matchLabelKeys", []):
                problems.append(f"{where} counts the old ReplicaSet's pods during a rollout (no pod-template-hash)")
            if constraint.get("whenUnsatisfiable") == "DoNotSchedule" and constraint.get("nodeTaintsPolicy") != "Honor":
                problems.append(f"{where} is DoNotSchedule without nodeTaintsPolicy: Honor")
    return problems


def _game_deployment(docs: list[dict]) -> dict:
    return next(d for d in by_kind(docs, "Deployment").values()
                if any(python_service(c.get("command", [])) == "game" for c in pod_spec(d)["containers"]))


def _seconds(duration: str) -> float:
    """Compose's durations as written here (``30s``, ``1m30s``)."""
    parts = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", duration)
    assert parts and duration, duration
    return int(parts.group(1) or 0) * 60 + int(parts.group(2) or 0)


def game_grace_problems(docs: list[dict], compose: dict) -> list[str]:
    problems = []
    game = _game_deployment(docs)
    spec = pod_spec(game)
    container = next(c for c in spec["containers"] if python_service(c.get("command", [])) == "game")
    pause = (container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command") or [])
    if len(pause) != 2 or pause[0] != "sleep" or not pause[1].isdigit():
        problems.append(f"Deployment/{game['metadata']['name']}: preStop is not a `sleep N` pause: {pause}")
        pause = ["sleep", "0"]
    needed = int(pause[1]) + 2 * HAND_OVER_S
    grace = spec.get("terminationGracePeriodSeconds", 30)
    if grace < needed:
        problems.append(f"Deployment/{game['metadata']['name']}: terminationGracePeriodSeconds {grace} < preStop"
                        f" {pause[1]} s + 2 × HAND_OVER_S {HAND_OVER_S} s")
    for name, service in compose["services"].items():
        if python_service(service.get("command")) == "game":
            stop = _seconds(service.get("stop_grace_period", "10s"))
            if stop < 2 * HAND_OVER_S:
                problems.append(f"compose {name}: stop_grace_period {stop} s < 2 × HAND_OVER_S {HAND_OVER_S} s")
    return problems


def interactive_floor_problems(docs: list[dict]) -> list[str]:
    problems = []
    deployments = by_kind(docs, "Deployment")
    interactive = {name for name, d in deployments.items()
                   if any(INTERACTIVE_QUEUE in celery_queues(c.get("command", [])) for c in pod_spec(d)["containers"])}
    scaled = {d["spec"]["scaleTargetRef"]["name"]: d for d in docs if d.get("kind") == "ScaledObject"}
    if not interactive:
        problems.append("no Deployment consumes the interactive queue")
    for name in sorted(interactive):
        obj = scaled.get(name)
        if obj is None:
            problems.append(f"Deployment/{name}: no ScaledObject scales it")
            continue
        floor = obj["spec"].get("minReplicaCount", 0)  # KEDA's default is 0
        if floor < 1:
            problems.append(f"ScaledObject/{obj['metadata']['name']}: minReplicaCount {floor}: computer moves"
                            " would wait for a worker to start")
        if obj["spec"].get("fallback", {}).get("replicas", floor) < floor:
            problems.append(f"ScaledObject/{obj['metadata']['name']}: fallback below the floor")
    return problems


CHECKS: dict[str, Callable[[list[dict]], list[str]]] = {
    "disruption budgets": disruption_budget_problems,
    "topology spread": spread_problems,
    "game grace": lambda docs: game_grace_problems(docs, compose_doc()),
    "interactive floor": interactive_floor_problems,
}


@pytest.mark.parametrize("check", CHECKS)
def test_the_manifests_pass(check: str) -> None:
    assert_no_problems(CHECKS[check](k8s_docs()))


def test_every_deployment_is_checked_the_router_too() -> None:
    assert set(by_kind(k8s_docs(), "Deployment")) == {"lobby", "game", "rating", "worker-interactive",
                                                      "worker-batch", "router"}


def _without(kind: str, name: str) -> list[dict]:
    return [d for d in k8s_docs() if not (d["kind"] == kind and d["metadata"]["name"] == name)]


def _changed(kind: str, name: str, change: Callable[[dict], None]) -> list[dict]:
    docs = copy.deepcopy(k8s_docs())
    change(next(d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name))
    return docs


def test_the_checks_reject_what_they_are_for() -> None:
    assert any("router" in p for p in disruption_budget_problems(_without("PodDisruptionBudget", "router")))
    assert any("minAvailable" in p or "maxUnavailable" in p for p in disruption_budget_problems(
        _changed("PodDisruptionBudget", "game", lambda b: b["spec"].update(maxUnavailable=0))))

    def soft_taints(d: dict) -> None:
        del pod_spec(d)["topologySpreadConstraints"][0]["nodeTaintsPolicy"]

    def other_pods(d: dict) -> None:
        pod_spec(d)["topologySpreadConstraints"][0]["labelSelector"]["matchLabels"] = {"app.kubernetes.io/name": "x"}

    assert any("nodeTaintsPolicy" in p for p in spread_problems(_changed("Deployment", "game", soft_taints)))
    assert any("own pods" in p for p in spread_problems(_changed("Deployment", "router", other_pods)))
    assert any("no topology spread" in p for p in spread_problems(
        _changed("Deployment", "router", lambda d: pod_spec(d).pop("topologySpreadConstraints"))))

    short = _changed("Deployment", "game", lambda d: pod_spec(d).update(terminationGracePeriodSeconds=25))
    assert any("terminationGracePeriodSeconds 25" in p for p in game_grace_problems(short, compose_doc()))
    compose = compose_doc()
    compose["services"]["game"]["stop_grace_period"] = "15s"
    assert any("stop_grace_period 15" in p for p in game_grace_problems(k8s_docs(), compose))

    to_zero = _changed("ScaledObject", "worker-interactive", lambda s: s["spec"].pop("minReplicaCount"))
    assert any("minReplicaCount 0" in p for p in interactive_floor_problems(to_zero))
