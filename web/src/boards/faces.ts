// Drawn faces (SVG) for Battlehanse's cards and Battlegeneral's pieces, in the Spielcenter's
// warm colours: one picture per good, the Packpferd and each rank, used on the table and in
// the Karten-Info window alike (seeds 000 and 002: "ein Info-Fenster mit Bild").
const NS = "http://www.w3.org/2000/svg";

function node(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
}

/** Each good's colour (the table's chip colours) and its emblem, drawn in a 60 × 60 box. */
const GOODS: Record<string, { fill: string; emblem: () => SVGElement[] }> = {
  Bernstein: {
    fill: "#f3c27a",
    emblem: () => [
      node("path", { d: "M30 8 C44 22 46 34 40 44 C34 53 22 52 18 44 C13 34 18 22 30 8 Z", fill: "#d9822b", stroke: "#8a4b12", "stroke-width": 2 }),
      node("ellipse", { cx: 25, cy: 32, rx: 4, ry: 7, fill: "#ffe0a6", opacity: 0.8 }),
    ],
  },
  Gold: {
    fill: "#f7e08a",
    emblem: () => [
      node("path", { d: "M10 44 L18 28 L42 28 L50 44 Z", fill: "#e0b12a", stroke: "#8a6d12", "stroke-width": 2 }),
      node("path", { d: "M18 28 L24 16 L44 16 L42 28 Z", fill: "#f2cd4a", stroke: "#8a6d12", "stroke-width": 2 }),
    ],
  },
  Silber: {
    fill: "#e4e7ea",
    emblem: () => [
      node("circle", { cx: 30, cy: 30, r: 18, fill: "#c4c9cf", stroke: "#6d7075", "stroke-width": 2 }),
      node("circle", { cx: 30, cy: 30, r: 12, fill: "none", stroke: "#8d9196", "stroke-width": 1.5 }),
      node("path", { d: "M30 22 L33 29 L40 30 L33 32 L30 39 L27 32 L20 30 L27 29 Z", fill: "#f4f6f8" }),
    ],
  },
  Tuch: {
    fill: "#e6c9e8",
    emblem: () => [
      node("rect", { x: 12, y: 16, width: 30, height: 28, rx: 3, fill: "#9b4f9f", stroke: "#5c2a60", "stroke-width": 2 }),
      node("ellipse", { cx: 42, cy: 30, rx: 6, ry: 14, fill: "#b86dbc", stroke: "#5c2a60", "stroke-width": 2 }),
      node("path", { d: "M14 24 H40 M14 32 H40 M14 40 H40", stroke: "#d7a8da", "stroke-width": 1.5 }),
    ],
  },
  Salz: {
    fill: "#f4f4f4",
    emblem: () => [
      node("path", { d: "M18 20 C18 14 42 14 42 20 L46 46 C46 50 14 50 14 46 Z", fill: "#d9cfb8", stroke: "#7b6a48", "stroke-width": 2 }),
      node("path", { d: "M20 22 C24 18 36 18 40 22", fill: "none", stroke: "#7b6a48", "stroke-width": 2 }),
      node("path", { d: "M22 36 L30 28 L38 36 Z", fill: "#ffffff", stroke: "#b9b9b9", "stroke-width": 1 }),
    ],
  },
  Pelz: {
    fill: "#d8c0a8",
    emblem: () => [
      node("path", { d: "M30 10 C36 10 38 16 44 16 C48 22 42 26 46 32 C48 40 42 44 40 50 C34 52 26 52 20 50 C18 44 12 40 14 32 C18 26 12 22 16 16 C22 16 24 10 30 10 Z", fill: "#8a5a32", stroke: "#4a2e16", "stroke-width": 2 }),
      node("path", { d: "M24 24 C28 28 32 28 36 24 M24 34 C28 38 32 38 36 34", fill: "none", stroke: "#b9875a", "stroke-width": 1.5 }),
    ],
  },
  Packpferd: {
    fill: "#cfe3c4",
    emblem: () => [
      // A horse's head and neck with a pack strap.
      node("path", { d: "M18 50 C18 38 20 30 26 24 L24 14 L30 20 C36 18 44 22 46 30 L48 38 C48 42 44 42 42 40 L38 34 C36 40 36 46 38 50 Z", fill: "#7a5230", stroke: "#3e2812", "stroke-width": 2 }),
      node("circle", { cx: 36, cy: 27, r: 2, fill: "#1d1208" }),
      node("path", { d: "M22 36 L38 44", stroke: "#c9a227", "stroke-width": 3 }),
    ],
  },
};

/** A Battlehanse card's face: the good's colour, its emblem and its name. ``label``: the name in the chosen language. */
export function cardFace(card: string, label: string): SVGElement {
  const good = GOODS[card];
  const face = node("svg", { class: "card-face", viewBox: "0 0 60 84", role: "img", "aria-label": label, "data-face": card || "back" });
  if (!good) {
    // The back of a card (the deck, a hidden hand): the Kontor's seal.
    face.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: "#6b4f2a", stroke: "#3b2c18", "stroke-width": 2 }),
      node("circle", { cx: 30, cy: 42, r: 14, fill: "none", stroke: "#c9a227", "stroke-width": 2 }),
      node("path", { d: "M30 32 L33 40 L41 42 L33 44 L30 52 L27 44 L19 42 L27 40 Z", fill: "#c9a227" }));
    return face;
  }
  face.append(
    node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: good.fill, stroke: "#8a6d3b", "stroke-width": 2 }),
    node("g", { transform: "translate(0 4)" }, ...good.emblem()),
    node("text", { x: 30, y: 76, "text-anchor": "middle", "font-size": label.length > 9 ? 8 : 10, "font-family": "system-ui, sans-serif", fill: "#2b2620" }, document.createTextNode(label)),
  );
  return face;
}

/** A five-pointed star of outer radius ``r`` centred on (cx, cy). */
function star(cx: number, cy: number, r: number, colour: string): SVGElement {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return node("polygon", { points: points.join(" "), fill: colour });
}

/** Where the stars of 1–4 stars stand in the box (one large, two side by side, three as a
 * triangle, four in a square), so that each star stays large enough to count on a board square. */
const STARS: Record<number, Array<[number, number]>> = {
  1: [[20, 20]],
  2: [[11, 20], [29, 20]],
  3: [[20, 11], [11, 28], [29, 28]],
  4: [[11, 11], [29, 11], [11, 29], [29, 29]],
};

/** The emblem of a rank in a 40 × 40 box (for the board's pieces and the piece faces): the
 * Fahne a flag, a Mine a spiked ball, the Spion a mask, the Aufklärer a field glass (he scouts),
 * the Mineur a pickaxe (he clears mines), Unteroffizier and Leutnant two and three chevrons,
 * Hauptmann to General one to four stars, the Feldmarschall a crown. */
export function rankEmblem(token: string, colour = "#fff"): SVGElement {
  if (token === "F") {
    return node("g", {}, node("path", { d: "M12 6 V34", stroke: colour, "stroke-width": 3 }),
      node("path", { d: "M13 7 L32 12 L13 19 Z", fill: colour }));
  }
  if (token === "B") {
    return node("g", {}, node("circle", { cx: 20, cy: 22, r: 10, fill: colour }),
      node("path", { d: "M20 6 V12 M20 32 V38 M4 22 H10 M30 22 H36 M9 11 L13 15 M27 29 L31 33 M31 11 L27 15 M13 29 L9 33", stroke: colour, "stroke-width": 3 }));
  }
  if (token === "S") {
    return node("g", {}, node("path", { d: "M6 16 C12 10 28 10 34 16 C32 26 24 26 20 22 C16 26 8 26 6 16 Z", fill: colour }),
      node("circle", { cx: 14, cy: 17, r: 2.5, fill: "#222" }), node("circle", { cx: 26, cy: 17, r: 2.5, fill: "#222" }));
  }
  const rank = Number(token);
  if (rank === 10) {
    return node("g", {}, node("path", { d: "M5 32 L7 11 L14 20 L20 6 L26 20 L33 11 L35 32 Z", fill: colour }),
      node("rect", { x: 5, y: 33, width: 30, height: 4, fill: colour }));
  }
  if (rank >= 6 && rank <= 9) {
    const stars = STARS[rank - 5];
    const size = stars.length === 1 ? 15 : stars.length === 2 ? 10 : 9;
    return node("g", {}, ...stars.map(([cx, cy]) => star(cx, cy, size, colour)));
  }
  if (rank === 4 || rank === 5) {
    const chevrons = rank - 2; // Unteroffizier two, Leutnant three
    const top = 20 - chevrons * 5;
    return node("g", {}, ...Array.from({ length: chevrons }, (_, i) =>
      node("path", { d: `M7 ${top + i * 10} L20 ${top + 9 + i * 10} L33 ${top + i * 10}`, fill: "none", stroke: colour, "stroke-width": 4, "stroke-linejoin": "round" })));
  }
  if (rank === 3) {
    // A pickaxe: the curved head across the top, the handle down to the left.
    return node("g", {}, node("path", { d: "M5 15 C12 6 28 6 35 15 C28 11 12 11 5 15 Z", fill: colour, stroke: colour, "stroke-width": 2, "stroke-linejoin": "round" }),
      node("path", { d: "M21 10 L11 35", stroke: colour, "stroke-width": 4, "stroke-linecap": "round" }));
  }
  if (rank === 2) {
    // A field glass: two barrels with their eyepieces and a bridge, the front lenses dark.
    return node("g", {}, node("rect", { x: 8, y: 5, width: 8, height: 8, rx: 2, fill: colour }),
      node("rect", { x: 24, y: 5, width: 8, height: 8, rx: 2, fill: colour }),
      node("rect", { x: 4, y: 12, width: 14, height: 23, rx: 5, fill: colour }),
      node("rect", { x: 22, y: 12, width: 14, height: 23, rx: 5, fill: colour }),
      node("rect", { x: 16, y: 16, width: 8, height: 6, fill: colour }),
      node("circle", { cx: 11, cy: 28, r: 4, fill: "#222" }), node("circle", { cx: 29, cy: 28, r: 4, fill: "#222" }));
  }
  // An unknown token: a plain circle, never an empty piece.
  return node("g", {}, node("circle", { cx: 20, cy: 20, r: 8, fill: colour }));
}

/** A Battlegeneral piece's face for the Karten-Info: the side's colour, the rank's emblem, its number and name. */
export function pieceFace(token: string | null, owner: number, label: string): SVGElement {
  const face = node("svg", { class: "piece-face", viewBox: "0 0 60 84", role: "img", "aria-label": label, "data-face": token ?? "hidden" });
  const fill = owner === 0 ? "#c8372d" : "#2d5fc8";
  face.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 8, fill, stroke: "#0006", "stroke-width": 2 }));
  if (token === null) {
    face.append(node("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": 28, "font-family": "system-ui, sans-serif", fill: "#fff" }, document.createTextNode("?")));
    return face;
  }
  face.append(node("g", { transform: "translate(10 6)" }, rankEmblem(token)));
  const shown = token === "B" || token === "F" || token === "S" ? "" : token;
  if (shown) face.append(node("text", { x: 30, y: 62, "text-anchor": "middle", "font-size": 16, "font-weight": "bold", "font-family": "system-ui, sans-serif", fill: "#fff" }, document.createTextNode(shown)));
  face.append(node("text", { x: 30, y: 78, "text-anchor": "middle", "font-size": label.length > 10 ? 7 : 9, "font-family": "system-ui, sans-serif", fill: "#fff" }, document.createTextNode(label)));
  return face;
}
