"""Read a real process's Prometheus text: every sample, and the metric names it exports."""

from __future__ import annotations

import time
from collections.abc import Callable

import requests
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple], float]


def scrape(metrics_url: str) -> Samples:
    """Every sample at ``metrics_url`` as (name, sorted labels) → value; families without samples as (name, ())."""
    response = requests.get(metrics_url, timeout=10)
    assert response.status_code == 200, response.text[:500]
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        samples.setdefault((family.name, ()), 0.0)
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def scrape_until(metrics_url: str, done: Callable[[Samples], bool], timeout: float = 10) -> Samples:
    """The first scrape for which ``done`` holds, or the last one after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(metrics_url)
        if done(samples) or time.monotonic() > deadline:
            return samples
        time.sleep(0.05)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def names(samples: Samples) -> set[str]:
    """Every series name in ``samples`` (a histogram gives its family name and its _bucket/_sum/_count)."""
    return {name for name, _labels in samples}
