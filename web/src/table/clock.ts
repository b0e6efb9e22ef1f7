// The clocks at a table. The server's `remaining_ms` as of `server_now_ms` is the truth;
// between two table:state messages the running clock counts down locally. In the last
// ten seconds it blinks and ticks softly (a short WebAudio beep, no audio file).
import { el } from "../dom";
import type { TableClocks } from "../protocol";

const WARNING_MS = 10_000;
const LAST_MINUTE_MS = 60_000;

let audio: AudioContext | null = null;

/** A soft tick: 40 ms of a quiet sine. Browsers allow sound only after a user gesture. */
function tick(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.04, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.04);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.05);
  } catch {
    // No audio on this device: the blinking alone must do.
  }
}

export function formatMs(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < WARNING_MS) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const seconds = Math.ceil(clamped / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

export class TableClock {
  /** One display per seat. */
  readonly faces: [HTMLElement, HTMLElement];
  private clocks: TableClocks | null = null;
  private receivedAt = 0; // performance.now() when the last state arrived
  private timer = 0;
  private lastTickSecond = -1;
  private silent: boolean;

  constructor(silent = false) {
    this.silent = silent;
    this.faces = [el("div", { class: "clock", "data-testid": "clock-0" }), el("div", { class: "clock", "data-testid": "clock-1" })];
  }

  update(clocks: TableClocks, running: boolean): void {
    this.clocks = running ? clocks : { ...clocks, running: null };
    this.receivedAt = performance.now();
    this.draw();
    window.clearInterval(this.timer);
    if (this.clocks.running !== null) this.timer = window.setInterval(() => this.draw(), 100);
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  /** Time left on ``seat``'s clock now, as the client estimates it. */
  left(seat: number): number | null {
    const clocks = this.clocks;
    if (!clocks || clocks.remaining_ms.length < 2) return null;
    const base = clocks.remaining_ms[seat];
    return clocks.running === seat ? base - (performance.now() - this.receivedAt) : base;
  }

  private draw(): void {
    const clocks = this.clocks;
    const perMove = clocks?.per_move_limit_ms ?? null;
    for (const seat of [0, 1]) {
      const face = this.faces[seat];
      const left = this.left(seat);
      const running = clocks?.running === seat;
      // Ohne Uhr: only the last minute of the ten-minute move limit is shown.
      const shown = left !== null && (perMove === null || (running && left <= LAST_MINUTE_MS));
      face.hidden = !shown;
      if (!shown || left === null) continue;
      face.textContent = formatMs(left);
      face.classList.toggle("running", running);
      const warning = running && left <= WARNING_MS;
      face.classList.toggle("warning", warning);
      if (warning && !this.silent && left > 0) {
        const second = Math.ceil(left / 1000);
        if (second !== this.lastTickSecond) {
          this.lastTickSecond = second;
          tick();
        }
      }
    }
  }
}
