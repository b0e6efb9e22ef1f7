// The lobby's account routes. The session itself is an HttpOnly cookie the browser
// keeps; this code never sees the token.
import { lang } from "./i18n";
import type { ErrorInfo, User } from "./protocol";

export class ApiError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

/** JSON to and from the lobby with the session cookie (GET without a body, POST with one,
 * unless ``method`` says otherwise); a refusal becomes an ApiError carrying the server's
 * message, already in the chosen language (asked for with X-Lang). */
export async function lobbyJson<T>(path: string, body?: object, method: "GET" | "POST" = body === undefined ? "GET" : "POST"): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-Lang": lang() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await response.json().catch(() => null)) as (T & { error?: ErrorInfo }) | null;
  if (!response.ok || data === null) {
    throw new ApiError(data?.error ?? { code: `http_${response.status}`, message: response.statusText });
  }
  return data;
}

function call(method: "GET" | "POST", path: string, body?: object): Promise<unknown> {
  return lobbyJson<unknown>(path, body, method);
}

async function userFrom(method: "GET" | "POST", path: string, body?: object): Promise<User> {
  return ((await call(method, path, body)) as { user: User }).user;
}

export async function me(): Promise<User | null> {
  try {
    return await userFrom("GET", "/api/me");
  } catch (error) {
    if (error instanceof ApiError && error.info.code === "not_logged_in") return null;
    throw error;
  }
}

export const enterAsGuest = () => userFrom("POST", "/api/guest");
export const login = (name: string, password: string) => userFrom("POST", "/api/login", { name, password });
export const register = (name: string, password: string) => userFrom("POST", "/api/register", { name, password });
export const logout = () => call("POST", "/api/logout");
