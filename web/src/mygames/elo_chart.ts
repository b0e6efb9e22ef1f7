// The Elo history of one game as a small SVG line: the start value, then the Elo after
// every counted rated game, evenly spaced (a game is a step, whatever the days between).
import type { EloPoint } from "../protocol";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 480;
const HEIGHT = 160;
const PAD = { left: 44, right: 12, top: 12, bottom: 20 };

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** Chart of ``points`` (oldest first); ``caption`` names it for screen readers. */
export function eloChart(points: EloPoint[], caption: string): SVGSVGElement {
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "elo-chart", role: "img", "aria-label": caption, "data-testid": "elo-chart" });
  if (points.length === 0) return root;
  const values = [points[0]!.elo_before, ...points.map((p) => p.elo)];
  // At least 40 Elo of height, so a few points of change do not fill the chart.
  const mid = (Math.max(...values) + Math.min(...values)) / 2;
  const low = Math.min(Math.min(...values), mid - 20);
  const high = Math.max(Math.max(...values), mid + 20);
  const x = (i: number): number => PAD.left + (i * (WIDTH - PAD.left - PAD.right)) / Math.max(1, values.length - 1);
  const y = (v: number): number => PAD.top + ((high - v) * (HEIGHT - PAD.top - PAD.bottom)) / (high - low);
  for (const [value, anchor] of [[high, "high"], [low, "low"]] as const) {
    root.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value), class: "grid" }));
    const label = svg("text", { x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end", class: `axis ${anchor}` });
    label.textContent = String(Math.round(value));
    root.append(label);
  }
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "elo-line", fill: "none" }));
  values.forEach((value, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(value), r: 3.5, class: "elo-dot", "data-testid": "elo-point", "data-elo": value });
    const title = svg("title", {});
    title.textContent = i === 0 ? String(value) : `${value} (${new Date(points[i - 1]!.finished_at).toLocaleDateString()})`;
    dot.append(title);
    root.append(dot);
  });
  return root;
}
