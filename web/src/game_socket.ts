// The connection to the game service: a ticket from the lobby (token + URL), then one
// Socket.IO client per table shown, on the path /game/socket.io with the table's id in the
// URL (?table=<id>). The deploy's router sends every socket of a table to the one game
// process that owns it (deploy/nginx.conf: hash $arg_table consistent), so the transport is
// WebSocket only: a long-polling session is many requests, which only the table id keeps
// together, and one WebSocket is one request. Pages without a table open no game socket.
import { io, type Socket } from "socket.io-client";
import { lang } from "./i18n";
import type { GameClientToServerEvents, GameServerToClientEvents } from "./protocol";
import { tt } from "./table/texts";

export type GameSocket = Socket<GameServerToClientEvents, GameClientToServerEvents>;

interface Ticket {
  token: string;
  game_url: string;
}

let ticket: Promise<Ticket> | null = null;
// The open table socket and how many parts of the page hold it (a table page, a Rückblick).
let current: { table: number; socket: GameSocket; holders: number } | null = null;
const openedHooks: Array<(socket: GameSocket) => void> = [];

async function fetchTicket(): Promise<Ticket> {
  const response = await fetch("/api/game-ticket", { credentials: "same-origin", headers: { "X-Lang": lang() } });
  if (!response.ok) throw new Error(`game ticket: HTTP ${response.status}`);
  return (await response.json()) as Ticket;
}

async function currentTicket(): Promise<Ticket> {
  ticket ??= fetchTicket();
  return ticket.catch((error) => {
    ticket = null;
    throw error;
  });
}

/** Thrown where the browser cannot open a WebSocket at all; its message says so to the player. */
export class NoWebSocket extends Error {
  constructor() {
    super(tt("noWebSocket"));
  }
}

/** The game service's base URL (for its HTTP routes). */
export async function gameUrl(): Promise<string> {
  return (await currentTicket()).game_url.replace(/\/$/, "");
}

function open({ token, game_url }: Ticket, table: string): GameSocket {
  if (typeof WebSocket === "undefined") throw new NoWebSocket();
  return io(game_url, {
    path: "/game/socket.io",
    query: { table },
    transports: ["websocket"],
    // Each table has a connection of its own, even to the same host.
    forceNew: true,
    // Read at every (re)connect, so a language switch carries over.
    auth: (send) => send({ token, lang: lang() }),
  });
}

/** The socket of table ``gameId``, held until :func:`releaseTableSocket`: created on first
 * use, reconnecting by itself (after its process died, to the process that owns the table
 * then). Asking for another table closes the socket of the one before. */
export async function tableSocket(gameId: number): Promise<GameSocket> {
  const got = await currentTicket();
  // The same table's socket, opened meanwhile or before, is shared.
  if (current?.table === gameId) {
    current.holders += 1;
    return current.socket;
  }
  const socket = open(got, String(gameId));
  current?.socket.disconnect();
  current = { table: gameId, socket, holders: 1 };
  for (const hook of openedHooks) hook(socket);
  return socket;
}

/** The socket of table ``gameId`` if it is open now (never opens one). */
export function openTableSocket(gameId: number): GameSocket | null {
  return current?.table === gameId ? current.socket : null;
}

/** Let go of the socket of table ``gameId`` (its page is left); the last holder closes it. */
export function releaseTableSocket(gameId: number): void {
  if (current?.table !== gameId) return;
  current.holders -= 1;
  if (current.holders > 0) return;
  current.socket.disconnect();
  current = null;
}

/** A socket for a request that has no table yet (table:new_local): the caller disconnects it
 * once the answer names the table, whose page then opens that table's socket. */
export async function socketWithoutTable(): Promise<GameSocket> {
  // Any process may open a table: spread the requests over them.
  return open(await currentTicket(), `new-${Math.random().toString(36).slice(2, 10)}`);
}

/** ``hook`` runs for every table socket opened from now on (and for the open one). */
export function onTableSocket(hook: (socket: GameSocket) => void): void {
  openedHooks.push(hook);
  if (current) hook(current.socket);
}

/** Forget the connection (sign-out: the next table asks for a fresh ticket). */
export function closeGameSocket(): void {
  current?.socket.disconnect();
  current = null;
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
