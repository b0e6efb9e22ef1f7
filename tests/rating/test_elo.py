"""Elo math (shared.elo)."""

from __future__ import annotations

import pytest

from shared import elo


def test_expected_scores() -> None:
    assert elo.expected(1500, 1500) == 0.5
    assert elo.expected(1900, 1500) == pytest.approx(0.909, abs=0.001)
    assert elo.expected(1500, 1900) + elo.expected(1900, 1500) == pytest.approx(1.0)


def test_k_factor_new_then_settled() -> None:
    assert elo.k_factor(0) == 40 and elo.k_factor(29) == 40
    assert elo.k_factor(30) == 20


def test_updates() -> None:
    assert elo.updated(1500, 1500, 1.0, 0) == 1520
    assert elo.updated(1500, 1500, 0.0, 0) == 1480
    assert elo.updated(1500, 1500, 0.5, 0) == 1500
    assert elo.updated(1500, 1500, 1.0, 30) == 1510
    # The favourite gains little for a win and loses more for a draw.
    assert elo.updated(1900, 1500, 1.0, 40) == 1902
    assert elo.updated(1900, 1500, 0.5, 40) == 1892
    assert elo.updated(1500, 1900, 0.5, 40) == 1508
