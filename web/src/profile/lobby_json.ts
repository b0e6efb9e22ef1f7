// JSON over HTTP to the lobby with the session cookie; a refusal becomes an Error carrying
// the server's message (already in the chosen language, asked for with X-Lang).
import { lang } from "../i18n";
import type { ErrorInfo } from "../protocol";

export class LobbyError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

export async function lobbyJson<T>(path: string, body?: object): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", "X-Lang": lang() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await response.json().catch(() => null)) as (T & { error?: ErrorInfo }) | null;
  if (!response.ok || data === null) {
    throw new LobbyError(data?.error ?? { code: `http_${response.status}`, message: response.statusText });
  }
  return data;
}
