// UI texts, German first, English second. The chosen language is kept per device.
import { LANGUAGES, type Language } from "./protocol";

const TEXTS = {
  title: { de: "Spielcenter", en: "Spielcenter" },
  tagline: {
    de: "Vier Strategiespiele für zwei – triff andere im Wartesaal.",
    en: "Four strategy games for two – meet others in the Wartesaal (waiting room).",
  },
  playAsGuest: { de: "Als Gast spielen", en: "Play as a guest" },
  guestHint: {
    de: "Ein Klick, kein Passwort; Gäste spielen ohne Taler-Einsatz. Später registrieren – alles bleibt erhalten, und dein Konto bekommt seine Start-Taler.",
    en: "One click, no password; guests play without a Taler stake. Register later – you keep everything, and your account gets its start Taler.",
  },
  login: { de: "Anmelden", en: "Log in" },
  register: { de: "Registrieren", en: "Register" },
  createAccount: { de: "Konto anlegen", en: "Create account" },
  logout: { de: "Abmelden", en: "Log out" },
  name: { de: "Name", en: "Name" },
  password: { de: "Passwort", en: "Password" },
  nameHint: {
    de: "3–20 Zeichen: Buchstaben, Ziffern, - und _",
    en: "3–20 characters: letters, digits, - and _",
  },
  passwordHint: { de: "mindestens 8 Zeichen", en: "at least 8 characters" },
  cancel: { de: "Abbrechen", en: "Cancel" },
  chat: { de: "Chat", en: "Chat" },
  chatPlaceholder: { de: "Nachricht schreiben …", en: "Write a message …" },
  send: { de: "Senden", en: "Send" },
  chatEmpty: { de: "Noch keine Nachrichten. Sag Hallo!", en: "No messages yet. Say hello!" },
  here: { de: "Im Wartesaal", en: "In the Wartesaal" },
  you: { de: "du", en: "you" },
  statusFree: { de: "frei", en: "free" },
  statusPlaying: { de: "spielt", en: "playing" },
  taler: { de: "Taler", en: "Taler" },
  guest: { de: "Gast", en: "guest" },
  connecting: { de: "Verbinde …", en: "Connecting …" },
  disconnected: {
    de: "Verbindung unterbrochen – verbinde neu …",
    en: "Connection lost – reconnecting …",
  },
  networkError: {
    de: "Der Server ist nicht erreichbar. Bitte später noch einmal versuchen.",
    en: "The server cannot be reached. Please try again later.",
  },
  language: { de: "Sprache", en: "Language" },
} as const;

export type TextKey = keyof typeof TEXTS;

const STORAGE_KEY = "spielcenter.lang";

function stored(): Language {
  const value = localStorage.getItem(STORAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : "de";
}

let current: Language = stored();
const listeners: Array<() => void> = [];

export function lang(): Language {
  return current;
}

export function setLang(next: Language): void {
  current = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

/** Call ``listener`` after every language switch; the answer stops that. */
export function onLangChange(listener: () => void): () => void {
  listeners.push(listener);
  return () => {
    const index = listeners.indexOf(listener);
    if (index >= 0) listeners.splice(index, 1);
  };
}

/** "1 Punkt" / "2 Punkte", "1 point" / "2 points": the count with the noun in the form it needs
 * (singular for exactly one, in both languages). ``forms``: ``{de: [one, many], en: [one, many]}``. */
export function counted(n: number, forms: Record<Language, readonly [string, string]>, shown: string = String(n)): string {
  const [one, many] = forms[current];
  return `${shown} ${Math.abs(n) === 1 ? one : many}`;
}

/** A signed number as a change: "+16", "−10" (a true minus sign), "±0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** A table of UI texts: every key has its text in each language (the type checks that). */
export type TextTable<K extends string = string> = Readonly<Record<K, Readonly<Record<Language, string>>>>;

/** Placeholder values for a text: ``{name}`` in it becomes ``params.name``. */
export type TextParams = Readonly<Record<string, string>>;

/** The lookup for ``table``: a key's text in the language chosen now, each ``{name}`` replaced
 * by ``params.name`` (a placeholder without a value stays as written). Each part of the page
 * keeps its own table and exports the lookup: ``export const xt = textsOf(TEXTS)``. */
export function textsOf<K extends string>(table: TextTable<K>): (key: K, params?: TextParams) => string {
  return (key, params) => {
    const text = table[key][current];
    return params === undefined ? text : text.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? `{${name}}`);
  };
}

export const t = textsOf(TEXTS);

// Held weakly: a page kept aside while another is shown (the Wartesaal during a table) must
// still follow a switch made meanwhile; a node nobody holds any more drops out by itself.
type Labelled = { node: WeakRef<HTMLElement>; key: TextKey; attr: string | null };
const labelled: Labelled[] = [];

/** Put text ``key`` on ``node`` (its text, or attribute ``attr``) now and on every language switch. */
export function label<T extends HTMLElement>(node: T, key: TextKey, attr: string | null = null): T {
  apply(node, key, attr);
  labelled.push({ node: new WeakRef(node), key, attr });
  return node;
}

function apply(node: HTMLElement, key: TextKey, attr: string | null): void {
  if (attr === null) node.textContent = t(key);
  else node.setAttribute(attr, t(key));
}

onLangChange(() => {
  for (let i = labelled.length - 1; i >= 0; i--) {
    const { node, key, attr } = labelled[i];
    const alive = node.deref();
    if (alive === undefined) labelled.splice(i, 1);
    else apply(alive, key, attr);
  }
});

document.documentElement.lang = current;
