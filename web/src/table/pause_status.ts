// The status line during a pause between rounds (Battlehanse's Rundentafel): nobody is
// to move and both clocks stand still, so it says the pause — never "Du bist am Zug".
// In the Wartesaal the line counts down to the next round; at a local table the
// player ends the pause with Weiter.
import { el } from "../dom";
import { lang } from "../i18n";

// The local end of the countdown, fixed at the first word of this pause: redraws of the
// same state must not move it.
let fixed: { until: number; localEnd: number } | null = null;

/** The line for a Wartesaal pause ending at server time `untilMs` (the payload's clocks). */
export function pauseCountdownLine(untilMs: number, serverNowMs: number): HTMLElement {
  if (!fixed || fixed.until !== untilMs) fixed = { until: untilMs, localEnd: Date.now() + (untilMs - serverNowMs) };
  const end = fixed.localEnd;
  const line = el("span", { "data-testid": "status-pause" });
  const tick = (): void => {
    const seconds = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    line.textContent = lang() === "en"
      ? `Round over – the next round begins in ${seconds} s; both clocks stand still.`
      : `Rundenpause – die nächste Runde beginnt in ${seconds} s; beide Uhren stehen.`;
  };
  tick();
  const timer = window.setInterval(() => {
    // A newer status line replaced this one: stop.
    if (!line.isConnected) window.clearInterval(timer);
    else tick();
  }, 250);
  return line;
}

/** The line for a pause the player ends (against the computer, at one device). */
export function pauseContinueLine(): HTMLElement {
  return el("span", { "data-testid": "status-pause" }, lang() === "en"
    ? "Round over – read the round table, then tap Continue for the next round."
    : "Rundenende – lies die Rundentafel, dann tippe Weiter für die nächste Runde.");
}
