// The connection to the game service: a ticket from the lobby (token + URL), then one
// Socket.IO client on the path /game/socket.io shared by every table page.
import { io, type Socket } from "socket.io-client";
import { lang } from "../i18n";
import type { GameClientToServerEvents, GameServerToClientEvents } from "../protocol";

export type GameSocket = Socket<GameServerToClientEvents, GameClientToServerEvents>;

interface Ticket {
  token: string;
  game_url: string;
}

let ticket: Promise<Ticket> | null = null;
let socket: GameSocket | null = null;

async function fetchTicket(): Promise<Ticket> {
  const response = await fetch("/api/game-ticket", { credentials: "same-origin", headers: { "X-Lang": lang() } });
  if (!response.ok) throw new Error(`game ticket: HTTP ${response.status}`);
  return (await response.json()) as Ticket;
}

/** The game service's base URL (for its HTTP routes). */
export async function gameUrl(): Promise<string> {
  ticket ??= fetchTicket();
  try {
    return (await ticket).game_url.replace(/\/$/, "");
  } catch (error) {
    ticket = null;
    throw error;
  }
}

/** The one game socket; created on first use, reconnecting by itself. */
export async function gameSocket(): Promise<GameSocket> {
  if (socket) return socket;
  ticket ??= fetchTicket();
  const { token, game_url } = await ticket.catch((error) => {
    ticket = null;
    throw error;
  });
  // A second caller may have created it while we waited.
  socket ??= io(game_url, {
    path: "/game/socket.io",
    // Read at every (re)connect, so a language switch carries over.
    auth: (send) => send({ token, lang: lang() }),
  });
  return socket;
}

/** Forget the connection (sign-out: the next table asks for a fresh ticket). */
export function closeGameSocket(): void {
  socket?.disconnect();
  socket = null;
  ticket = null;
}

/** GET a JSON route of the game service (with the session cookie: the hosts match in every setup). */
export async function gameApi<T>(path: string): Promise<T> {
  const base = await gameUrl();
  const response = await fetch(`${base}${path}`, { credentials: "include", headers: { "X-Lang": lang() } });
  const data = (await response.json().catch(() => null)) as (T & { error?: { message: string } }) | null;
  if (!response.ok || data === null) throw new Error(data?.error?.message ?? `HTTP ${response.status}`);
  return data;
}
