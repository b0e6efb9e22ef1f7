// #/postfach: invitations (to you, and yours to others) and notes. Annehmen starts the game
// when the other side is in the Wartesaal and free (both browsers open the table); when
// they are away it waits for them in their Postfach. Ablehnen leaves them a note.
import { el } from "../dom";
import { lang } from "../i18n";
import type { Invitation, Mailbox, MailboxNote, User } from "../protocol";
import { gameLabel } from "../profile/game_marks";
import { lobbyJson } from "../api";
import { profileLink } from "../profile/profile_link";
import { pt } from "../profile/texts";
import { mailboxBadge } from "./mailbox_badge";

type Outcome = { outcome: "started"; game_id: number } | { outcome: "waiting"; invitation: Invitation } | { outcome: "declined" | "withdrawn" };

function settingsText(invitation: Invitation): string {
  const s = invitation.settings;
  const clock = s.clock === "ohne" ? pt("noClock") : s.clock;
  const stake = s.stake ? ` · ${pt("stake")}: ${s.stake}` : "";
  return `${gameLabel(invitation.game)} · ${clock} · ${s.rated ? pt("rated") : pt("friendly")}${stake}`;
}

export class MailboxPage {
  readonly root = el("main", { class: "list-page card postfach-page", "data-testid": "postfach-page" });
  private readonly invitations = el("ul", { class: "postfach-list", "data-testid": "postfach-invitations" });
  private readonly notes = el("ul", { class: "postfach-list", "data-testid": "postfach-notes" });
  private readonly message = el("p", { class: "hint", "aria-live": "polite", "data-testid": "postfach-message" });
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "postfach-error" });
  private readonly stopListening: () => void;
  private marking = false;

  constructor(private readonly me: User) {
    this.root.append(el("h2", {}, pt("mailbox")), this.message, this.problem,
      el("h3", {}, pt("invitations")), this.invitations, el("h3", {}, pt("notes")), this.notes);
    // Something arrived while the page is open (a note, an acceptance): show it.
    this.stopListening = mailboxBadge.onChange(() => {
      if (!this.marking) void this.load();
    });
    void this.load();
  }

  close(): void {
    this.stopListening();
  }

  private async load(): Promise<void> {
    try {
      const box = await lobbyJson<Mailbox>("/api/postfach");
      this.render(box);
      if (box.notes.some((n) => !n.read)) {
        // Seen now: the notes no longer count on the badge.
        this.marking = true;
        const { count } = await lobbyJson<{ count: number }>("/api/postfach/read", {});
        mailboxBadge.set(count);
        this.marking = false;
      } else mailboxBadge.set(box.count);
    } catch (error) {
      this.marking = false;
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private render(box: Mailbox): void {
    this.invitations.replaceChildren(...box.invitations.map((i) => this.invitationRow(i)));
    if (box.invitations.length === 0) this.invitations.append(el("li", { class: "empty" }, pt("mailboxEmpty")));
    this.notes.replaceChildren(...box.notes.map((n) => this.noteRow(n)));
    if (box.notes.length === 0) this.notes.append(el("li", { class: "empty" }, "–"));
  }

  private invitationRow(invitation: Invitation): HTMLElement {
    const iInvited = invitation.inviter.user_id === this.me.id;
    const other = iInvited ? invitation.invitee : invitation.inviter;
    const myTurn = invitation.awaiting_user_id === this.me.id;
    const row = el("li", { class: "postfach-entry", "data-testid": "invitation", "data-invitation": String(invitation.id), "data-waiting-for-me": String(myTurn) });
    const who = profileLink(other.user_id, other.name);
    let text: (string | Node)[];
    if (myTurn && !iInvited) text = [who, ` ${pt("invitesYou")}`];
    else if (myTurn) text = [who, ` ${pt("acceptedByOther")}`];
    else if (iInvited) text = [`${pt("youInvited")} `, who, ` – ${pt("waitingForAnswer")}`];
    else text = [`${pt("youAccepted")} `, who, ` ${pt("startsWhenHere")}`];
    row.append(el("p", {}, ...text), el("p", { class: "meta" }, settingsText(invitation)));
    const actions = el("div", { class: "actions" });
    if (myTurn) {
      const accept = el("button", { type: "button", class: "primary", "data-testid": "invitation-accept" }, iInvited ? pt("playNow") : pt("accept"));
      accept.addEventListener("click", () => void this.act(invitation, "accept", accept));
      const decline = el("button", { type: "button", "data-testid": "invitation-decline" }, pt("decline"));
      decline.addEventListener("click", () => void this.act(invitation, "decline", decline));
      actions.append(accept, decline);
    } else {
      const withdraw = el("button", { type: "button", "data-testid": "invitation-withdraw" }, pt("withdraw"));
      withdraw.addEventListener("click", () => void this.act(invitation, "decline", withdraw));
      actions.append(withdraw);
    }
    row.append(actions);
    return row;
  }

  private noteRow(note: MailboxNote): HTMLElement {
    const invitation = note.invitation;
    const other = invitation.inviter.user_id === this.me.id ? invitation.invitee : invitation.inviter;
    const date = new Date(note.created_at).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" });
    return el("li", { class: note.read ? "postfach-note" : "postfach-note unread", "data-testid": "postfach-note", "data-kind": note.kind },
      el("p", {}, profileLink(other.user_id, other.name), ` ${pt(note.kind === "accepted" ? "note_accepted" : "note_declined")}: ${settingsText(invitation)}`),
      el("time", { datetime: note.created_at }, date));
  }

  private async act(invitation: Invitation, action: "accept" | "decline", button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    this.problem.textContent = "";
    this.message.textContent = "";
    try {
      const answer = await lobbyJson<Outcome>(`/api/postfach/invitations/${invitation.id}/${action}`, {});
      if (answer.outcome === "started") {
        // The Wartesaal socket's challenge:started opens the table too; this is the same place.
        location.hash = `#/partie/${answer.game_id}`;
        return;
      }
      if (answer.outcome === "waiting") {
        const other = invitation.inviter.user_id === this.me.id ? invitation.invitee : invitation.inviter;
        this.message.textContent = pt("acceptedAway", { name: other.name });
      }
      await this.load();
    } catch (error) {
      button.disabled = false;
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }
}
