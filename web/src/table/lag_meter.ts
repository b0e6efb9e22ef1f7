// The network lag a move reports (`lag_ms`), measured as lichess does: the round trip of
// a small ping to the game service, averaged. The server's turn time runs from sending the
// state to receiving the move, so it spans one whole round trip besides the thinking; the
// server credits the reported value up to its lag quota and at most one second per move.
import type { GameSocket } from "../game_socket";

const PING_EVERY_MS = 5000;
const MIX = 0.25; // weight of the newest round trip in the average
const MAX_RTT_MS = 10_000; // a ping this late says more about a sleeping tab than the line

export class LagMeter {
  private average: number | null = null;
  private timer = 0;
  private readonly onPong = (payload: { sent_ms: number }) => this.pong(payload.sent_ms);
  private readonly onConnect = () => this.ping();

  constructor(private readonly socket: GameSocket) {
    socket.on("table:pong", this.onPong);
    socket.on("connect", this.onConnect);
    this.ping();
    this.timer = window.setInterval(() => this.ping(), PING_EVERY_MS);
  }

  /** The averaged round trip in ms, or null before the first answer. */
  lagMs(): number | null {
    return this.average === null ? null : Math.round(this.average);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.socket.off("table:pong", this.onPong);
    this.socket.off("connect", this.onConnect);
  }

  private ping(): void {
    if (this.socket.connected) this.socket.emit("table:ping", { sent_ms: Math.round(performance.now()) });
  }

  private pong(sentMs: number): void {
    const rtt = Math.round(performance.now()) - sentMs;
    if (rtt < 0 || rtt > MAX_RTT_MS) return;
    this.average = this.average === null ? rtt : this.average + MIX * (rtt - this.average);
  }
}
