"""Every Ansicht theme keeps its contrast (WCAG 2.1): text ≥ 4.5:1 against what it is
written on, pieces ≥ 3:1 against the cells (and, for Battlebullet, the board) they
stand on, the Battlehexagon Fassung ≥ 3:1 against its Wabe.

The theme colours live in ``web/src/look/themes.ts``; the test bundles that file with
the web build's esbuild and evaluates it with node, so it checks exactly what the
client uses.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
EVALUATE = (
    "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const m={exports:{}};"
    "new Function('module','exports',s)(m,m.exports);process.stdout.write(JSON.stringify(m.exports))})"
)


def relative_luminance(colour: str) -> float:
    value = colour.lstrip("#")
    assert len(value) == 6, f"colour {colour!r} must be #rrggbb (no alpha: contrast needs opaque colours)"
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.fixture(scope="module")
def themes() -> dict:
    bundled = subprocess.run([str(WEB / "node_modules/.bin/esbuild"), "src/look/themes.ts", "--format=cjs",
                              "--log-level=warning"], cwd=WEB, capture_output=True, text=True, check=True, timeout=60)
    evaluated = subprocess.run(["node", "-e", EVALUATE], input=bundled.stdout, capture_output=True, text=True,
                               check=True, timeout=60)
    return json.loads(evaluated.stdout)


def test_the_formula_matches_known_ratios() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic "just fails 4.5"
    assert contrast("#123456", "#123456") == pytest.approx(1.0)


def test_the_seeds_themes_are_all_there(themes: dict) -> None:
    assert [t["de"] for t in themes["HEXAGON_FRAMES"].values()] == ["Gold", "Rotgold", "Silber", "Jade"]
    assert [t["de"] for t in themes["BULLET_BOARDS"].values()] == ["Edelstahl", "Porzellan", "Holz"]


def test_battlehexagon_frames_keep_their_contrast(themes: dict) -> None:
    failures = []
    for name, theme in themes["HEXAGON_FRAMES"].items():
        checks = [("Wabennamen", theme["text"], theme["cell"], 4.5), ("Rubin", theme["rubin"], theme["cell"], 3.0),
                  ("Perle", theme["perle"], theme["cell"], 3.0), ("Fassung", theme["frame"], theme["cell"], 3.0),
                  ("Rubin/Perle", theme["rubin"], theme["perle"], 3.0)]
        failures += [f"{name}: {what} {contrast(a, b):.2f} < {need}" for what, a, b, need in checks
                     if contrast(a, b) < need]
    assert not failures, failures


def test_battlebullet_boards_keep_their_contrast(themes: dict) -> None:
    failures = []
    for name, theme in themes["BULLET_BOARDS"].items():
        checks = [("Feldnamen", theme["text"], theme["hole"], 4.5)]
        for piece in ("white", "black"):
            for ground in ("hole", "frame"):
                checks.append((f"{piece} on {ground}", theme[piece], theme[ground], 3.0))
        checks.append(("white/black", theme["white"], theme["black"], 3.0))
        failures += [f"{name}: {what} {contrast(a, b):.2f} < {need}" for what, a, b, need in checks
                     if contrast(a, b) < need]
    assert not failures, failures


def page_palette() -> dict[str, str]:
    """The page's own colours: the CSS variables of ``:root`` in ``web/src/style.css``."""
    css = (WEB / "src/style.css").read_text(encoding="utf-8")
    root = re.search(r":root\s*\{(.*?)\}", css, re.S)
    assert root, "style.css has no :root block"
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\b", root.group(1)))


def test_the_page_text_keeps_its_contrast() -> None:
    colours = page_palette()
    white = "#ffffff"
    checks = [("ink on bg", colours["ink"], colours["bg"]), ("ink on card", colours["ink"], colours["card"]),
              ("muted on bg", colours["muted"], colours["bg"]), ("muted on card", colours["muted"], colours["card"]),
              ("error on card", colours["error"], colours["card"]), ("header", white, colours["accent"]),
              ("status frei", white, colours["free"]), ("status spielt", white, colours["playing"])]
    failures = [f"{what} {contrast(a, b):.2f} < 4.5" for what, a, b in checks if contrast(a, b) < 4.5]
    assert not failures, failures
