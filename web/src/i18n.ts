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
    de: "Ein Klick, kein Passwort. Später registrieren – alles bleibt erhalten.",
    en: "One click, no password. Register later – you keep everything.",
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

export function onLangChange(listener: () => void): void {
  listeners.push(listener);
}

export function t(key: TextKey): string {
  return TEXTS[key][current];
}

type Labelled = { node: HTMLElement; key: TextKey; attr: string | null };
const labelled: Labelled[] = [];

/** Put text ``key`` on ``node`` (its text, or attribute ``attr``) now and on every language switch. */
export function label<T extends HTMLElement>(node: T, key: TextKey, attr: string | null = null): T {
  const entry = { node, key, attr };
  apply(entry);
  labelled.push(entry);
  return node;
}

function apply({ node, key, attr }: Labelled): void {
  if (attr === null) node.textContent = t(key);
  else node.setAttribute(attr, t(key));
}

onLangChange(() => {
  // Forget nodes that left the page; relabel the rest.
  for (let i = labelled.length - 1; i >= 0; i--) {
    if (!labelled[i].node.isConnected) labelled.splice(i, 1);
    else apply(labelled[i]);
  }
});

document.documentElement.lang = current;
