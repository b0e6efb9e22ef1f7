/**
 * A Karten-Info box in the page flow that never makes the page shorter while it is in use.
 *
 * The box sits below or beside the board and changes as the pointer rests on pieces and cards.
 * Had it shrunk (hidden, or shorter text), a page scrolled to its end would be pulled down,
 * the board would move under the resting pointer, the pointer would meet another piece and the
 * box would change again: the board jumps.  So once shown the box keeps the tallest height it
 * has had and hides by visibility; the page below the board only ever grows.
 */

export function showSteady(box: HTMLElement): void {
  box.hidden = false;
  box.style.visibility = "";
  box.style.minHeight = `${Math.max(box.offsetHeight, parseFloat(box.style.minHeight) || 0)}px`;
}

/** Hide the box; a box never shown yet still takes no room. */
export function hideSteady(box: HTMLElement): void {
  if (!box.hidden) box.style.visibility = "hidden";
}
