// The Postfach link with its badge: invitations waiting for you plus unread notes. The
// Wartesaal refreshes it when it (re)connects and sets it on every postfach:changed.
import { el } from "../dom";
import { onLangChange } from "../i18n";
import type { Mailbox } from "../protocol";
import { lobbyJson } from "../api";
import { pt } from "../profile/texts";
import "../profile/profile.css";

export class MailboxBadge {
  readonly root = el("a", { href: "#/postfach", class: "postfach-link", "data-testid": "postfach-link" });
  private readonly count = el("span", { class: "badge", "data-testid": "postfach-badge", hidden: true });
  private readonly listeners: Array<(count: number) => void> = [];

  constructor() {
    this.draw();
    onLangChange(() => this.draw());
  }

  /** Called with the new count whenever it changes (the open Postfach page reloads). */
  onChange(listener: (count: number) => void): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener), 1);
  }

  set(count: number): void {
    this.count.textContent = String(count);
    this.count.hidden = count === 0;
    this.root.setAttribute("aria-label", `${pt("mailbox")}: ${count}`);
    for (const listener of [...this.listeners]) listener(count);
  }

  async refresh(): Promise<void> {
    try {
      this.set((await lobbyJson<Mailbox>("/api/postfach")).count);
    } catch {
      // Not signed in (any more) or the lobby away: the Wartesaal shows the connection state.
    }
  }

  private draw(): void {
    this.root.replaceChildren("✉ ", el("span", { class: "label" }, pt("mailbox")), " ", this.count);
    this.root.title = pt("mailbox");
  }
}

export const mailboxBadge = new MailboxBadge();
