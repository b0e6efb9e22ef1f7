// Revanche: ask the lobby for the next game against the same opponent, colours swapped
// (lobby event challenge:rematch). The challenge itself is then negotiated in the Wartesaal.
import { io, type Socket } from "socket.io-client";
import { lang } from "../i18n";
import type { ClientToServerEvents, ServerToClientEvents } from "../protocol";

const ANSWER_TIMEOUT_MS = 8000;

/** Resolves with null when the lobby took the request, with the error message otherwise. */
export function requestRematch(gameId: number): Promise<string | null> {
  // Its own short connection: the table page may be open without the Wartesaal.
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io({ auth: (send) => send({ lang: lang() }), forceNew: true });
  return new Promise((resolve) => {
    const done = (answer: string | null): void => {
      window.clearTimeout(timer);
      socket.disconnect();
      resolve(answer);
    };
    const timer = window.setTimeout(() => done(lang() === "en" ? "No answer from the Wartesaal." : "Keine Antwort vom Wartesaal."), ANSWER_TIMEOUT_MS);
    socket.on("connect", () => socket.emit("challenge:rematch", { game_id: gameId }));
    socket.on("challenge:update", ({ challenge }) => {
      if (challenge.rematch_of === gameId) done(null);
    });
    socket.on("error", (error) => {
      if (error.event === "challenge:rematch") done(error.message);
    });
    socket.on("connect_error", () => done(lang() === "en" ? "The Wartesaal cannot be reached." : "Der Wartesaal ist nicht erreichbar."));
  });
}
