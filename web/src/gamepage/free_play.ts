// "Kostenlos spielen" on a game page: a table against the computer (Mittel, the game's
// usual options) opens at once; the player lands on it as if started from #/computer.
import type { ErrorPayload, TableStatePayload } from "../protocol";
import { gameSocket } from "../table/game_socket";

type GameName = "hexagon" | "bullet" | "general" | "hanse";

/** Each game's usual options (seeds: "Alles steht von Anfang an auf …"). */
const USUAL_OPTIONS: Record<GameName, Record<string, unknown>> = {
  hexagon: { map: "klassisch", end_rule: "auffuellen" },
  bullet: { layout: "standard", win_target: 6, move_limit: null },
  general: {},
  hanse: {},
};

/** Open a computer table for ``game``; resolves with its id, rejects with the server's message. */
export async function startAgainstComputer(game: GameName): Promise<number> {
  const socket = await gameSocket();
  return new Promise<number>((resolve, reject) => {
    const onState = (payload: TableStatePayload) => {
      if (payload.mode !== "computer" || payload.game !== game || payload.moves.length > 1) return;
      cleanup();
      resolve(payload.game_id);
    };
    const onError = (error: ErrorPayload) => {
      if (error.event !== "table:new_local") return;
      cleanup();
      reject(new Error(error.message));
    };
    const cleanup = () => {
      socket.off("table:state", onState);
      socket.off("error", onError);
    };
    socket.on("table:state", onState);
    socket.on("error", onError);
    socket.emit("table:new_local", { game, mode: "computer", options: USUAL_OPTIONS[game], strength: "mittel", seat: 0, clock: null });
  });
}
