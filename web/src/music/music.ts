// Five calm background musics, made in the browser with WebAudio (seeds 001 and 004:
// "eine von fünf ruhigen Hintergrundmusiken"). Nothing is downloaded: each piece is a
// small generative recipe — a scale, a pace, a voice, a soft chord underneath — and a
// scheduler that keeps a second of notes queued ahead, chosen by a gentle random walk.
//
// The AudioContext's state is mirrored on <html data-audio="…"> so a test (or a curious
// player with dev tools) can see whether sound is really running.

export interface Piece {
  de: string;
  en: string;
  root: number; // Hz of the scale's first step
  scale: number[]; // semitones above the root
  beat: number; // seconds between melody steps
  rest: number; // chance a step stays silent
  voice: OscillatorType;
  chordEvery: number; // beats between chord changes
  chords: number[][]; // scale steps of each chord
  echo: number; // feedback of the echo (0 – none)
}

export const PIECES: Piece[] = [
  { de: "Ostseewind", en: "Baltic breeze", root: 220, scale: [0, 2, 4, 7, 9, 12, 14], beat: 0.9, rest: 0.45, voice: "sine",
    chordEvery: 8, chords: [[0, 2, 4], [3, 5, 0], [4, 6, 1]], echo: 0.35 },
  { de: "Kontor am Abend", en: "Counting house at dusk", root: 196, scale: [0, 3, 5, 7, 10, 12, 15], beat: 0.6, rest: 0.5, voice: "triangle",
    chordEvery: 8, chords: [[0, 2, 4], [1, 3, 5], [2, 4, 6]], echo: 0.3 },
  { de: "Wabenglanz", en: "Honeycomb shimmer", root: 392, scale: [0, 2, 4, 7, 9, 12], beat: 0.45, rest: 0.55, voice: "sine",
    chordEvery: 16, chords: [[0, 2, 4], [1, 3, 5]], echo: 0.45 },
  { de: "Stille See", en: "Calm sea", root: 174.6, scale: [0, 2, 5, 7, 9, 12], beat: 1.6, rest: 0.3, voice: "sine",
    chordEvery: 4, chords: [[0, 2, 4], [1, 3, 5], [2, 4, 0]], echo: 0.25 },
  { de: "Kerzenlicht", en: "Candlelight", root: 261.6, scale: [0, 2, 3, 7, 8, 12], beat: 1.1, rest: 0.4, voice: "triangle",
    chordEvery: 6, chords: [[0, 2, 3], [4, 1, 3], [2, 4, 0]], echo: 0.4 },
];

const LOOKAHEAD_S = 1.0;
const TICK_MS = 200;
const VOLUME = 0.12; // calm: far below the page's own sounds

class Player {
  private readonly master: GainNode;
  private readonly timer: number;
  private nextBeat: number;
  private beat = 0;
  private step: number;

  constructor(private readonly ctx: AudioContext, private readonly piece: Piece) {
    this.master = ctx.createGain();
    this.master.gain.setValueAtTime(0, ctx.currentTime);
    this.master.gain.linearRampToValueAtTime(VOLUME, ctx.currentTime + 2); // fade in
    const lowpass = ctx.createBiquadFilter();
    lowpass.type = "lowpass";
    lowpass.frequency.value = 2400;
    this.master.connect(lowpass).connect(ctx.destination);
    if (piece.echo > 0) {
      // A feedback delay gives the room some air without a downloaded impulse response.
      const delay = ctx.createDelay(2);
      delay.delayTime.value = piece.beat * 0.75;
      const feedback = ctx.createGain();
      feedback.gain.value = piece.echo;
      this.master.connect(delay).connect(feedback).connect(delay);
      feedback.connect(lowpass);
    }
    this.step = Math.floor(piece.scale.length / 2);
    this.nextBeat = ctx.currentTime + 0.1;
    this.timer = window.setInterval(() => this.schedule(), TICK_MS);
    this.schedule();
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  private frequency(step: number, octave = 0): number {
    const { scale, root } = this.piece;
    const index = ((step % scale.length) + scale.length) % scale.length;
    return root * 2 ** ((scale[index] + 12 * octave) / 12);
  }

  private schedule(): void {
    const { piece, ctx } = this;
    while (this.nextBeat < ctx.currentTime + LOOKAHEAD_S) {
      const at = this.nextBeat;
      if (this.beat % piece.chordEvery === 0) {
        const chord = piece.chords[(this.beat / piece.chordEvery) % piece.chords.length];
        for (const step of chord) this.note(this.frequency(step, -1), at, piece.beat * piece.chordEvery, 0.22, 1.2, "sine");
      }
      if (Math.random() > piece.rest) {
        // A random walk over the scale, mostly by step: calm, never jumpy.
        const move = [-2, -1, -1, 0, 1, 1, 2][Math.floor(Math.random() * 7)];
        this.step = Math.max(0, Math.min(piece.scale.length * 2 - 1, this.step + move));
        const octave = Math.floor(this.step / piece.scale.length);
        this.note(this.frequency(this.step % piece.scale.length, octave), at, piece.beat * 1.8, 0.3, 0.03, piece.voice);
      }
      this.beat += 1;
      this.nextBeat += piece.beat;
    }
  }

  private note(frequency: number, at: number, length: number, level: number, attack: number, voice: OscillatorType): void {
    const osc = this.ctx.createOscillator();
    osc.type = voice;
    osc.frequency.value = frequency;
    const envelope = this.ctx.createGain();
    envelope.gain.setValueAtTime(0, at);
    envelope.gain.linearRampToValueAtTime(level, at + attack);
    envelope.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(envelope).connect(this.master);
    osc.start(at);
    osc.stop(at + length + 0.05);
  }
}

let context: AudioContext | null = null;
let player: Player | null = null;

function mirror(state: string): void {
  document.documentElement.dataset.audio = state;
}

/** Play piece ``index`` (0–4), replacing whatever plays. Call from a click or key press:
 * browsers start sound only after the player did something on the page. */
export function startMusic(index: number): void {
  stopMusic();
  context = new AudioContext();
  const ctx = context;
  // An old context closing after a switch of pieces must not overwrite the new one's state.
  ctx.addEventListener("statechange", () => {
    if (context === ctx || context === null) mirror(ctx.state);
  });
  mirror(ctx.state);
  void ctx.resume();
  player = new Player(ctx, PIECES[Math.max(0, Math.min(PIECES.length - 1, index))]);
}

export function stopMusic(): void {
  player?.stop();
  player = null;
  const ctx = context;
  context = null;
  if (ctx) void ctx.close().then(() => context === null && mirror("closed"));
  else mirror("off");
}

export function musicPlaying(): boolean {
  return player !== null;
}
