// The Spielcenter web client: entry page or Wartesaal, a header with account and language.
import "./style.css";
import { logout, me } from "./api";
import { clear, el } from "./dom";
import { credentialsForm, entryView } from "./entry";
import { label, lang, onLangChange, setLang, t } from "./i18n";
import { LANGUAGES, type User } from "./protocol";
import { Wartesaal } from "./wartesaal";
import { closeGameSocket } from "./game_socket";
import { pageFor, type Page, tableNav } from "./routes";
import { LeaveGuard } from "./leaving/leave_guard";
import { mailboxBadge } from "./mailbox/mailbox_badge";
// After the table CSS: the Ansicht's theme rules replace its default colours.
import "./look/look.css";
import { lookControls } from "./look/look_controls";
import { onBalance } from "./balance";

const app = document.getElementById("app")!;
const account = el("div", { class: "account", "data-testid": "account" });
const pagesNav = tableNav();
const header = el(
  "header",
  {},
  label(el("h1"), "title"),
  pagesNav,
  lookControls(),
  account,
  el("nav", { class: "languages" }, ...LANGUAGES.map(languageButton)),
);
const view = el("div", { class: "view" });
const dialog = el("dialog", { class: "card", "data-testid": "register-dialog" });
const leaveGuard = new LeaveGuard(); // "Wer die Partie verlässt, verliert sie" under the header
app.append(header, leaveGuard.banner, view, dialog);

let wartesaal: Wartesaal | null = null;
let currentUser: User | null = null;
let page: Page | null = null; // a table page (#/partie/…, #/live …) in place of the Wartesaal
// Numbers are formatted per language: redraw the account line on a switch.
onLangChange(() => {
  showAccount(currentUser);
  pagesNav.redraw();
});
window.addEventListener("hashchange", () => route());

/** Show the page the hash names, or the Wartesaal (the Wartesaal socket stays open meanwhile). */
function route(): void {
  page?.close();
  page = currentUser ? pageFor(location.hash, currentUser) : null;
  leaveGuard.shown(page ? location.hash : "");
  pagesNav.hidden = !currentUser;
  if (page) view.replaceChildren(page.root);
  else if (wartesaal) view.replaceChildren(wartesaal.root);
}

function languageButton(code: (typeof LANGUAGES)[number]): HTMLButtonElement {
  const button = el("button", { type: "button", "data-lang": code, "aria-pressed": String(code === lang()) }, code.toUpperCase());
  button.addEventListener("click", () => {
    setLang(code);
    for (const other of document.querySelectorAll<HTMLButtonElement>("nav.languages button")) {
      other.setAttribute("aria-pressed", String(other.dataset.lang === code));
    }
  });
  return button;
}

// A game's pot or a stake back: the header shows the new balance at once.
onBalance((balance) => {
  if (currentUser && currentUser.balance !== balance) showAccount({ ...currentUser, balance });
});

function showAccount(user: User | null): void {
  currentUser = user;
  clear(account);
  if (!user) return;
  const balance = el("span", { class: "balance", "data-testid": "balance" }, `${user.balance.toLocaleString(lang())} `, label(el("span"), "taler"));
  account.append(el("span", { class: "who", "data-testid": "me" }, user.name), balance, mailboxBadge.root);
  if (user.guest) {
    const create = label(el("button", { type: "button", "data-testid": "open-register" }), "createAccount");
    create.addEventListener("click", () => {
      dialog.replaceChildren(credentialsForm("register", (registered) => { dialog.close(); signedIn(registered); }, () => dialog.close()));
      dialog.showModal();
    });
    account.append(create);
  }
  const out = label(el("button", { type: "button", "data-testid": "logout" }), "logout");
  out.addEventListener("click", async () => {
    await logout().catch(() => undefined);
    // The server ends this session's sockets before it answers, so the Wartesaal may already
    // have signed out on their session_ended: a second entry page would replace a form the
    // player has begun to fill in.
    if (currentUser?.id === user.id) signedOut();
  });
  account.append(out);
}

function signedIn(user: User): void {
  // A new session cookie (guest, login, registration): the socket must reconnect to carry it.
  wartesaal?.close();
  wartesaal = new Wartesaal(user, showAccount, signedOut);
  showAccount(user);
  view.replaceChildren(wartesaal.root);
  route();
}

function signedOut(): void {
  wartesaal?.close();
  wartesaal = null;
  closeGameSocket();
  showAccount(null);
  route();
  view.replaceChildren(entryView(signedIn));
}

me()
  .then((user) => (user ? signedIn(user) : signedOut()))
  .catch(() => {
    view.replaceChildren(el("p", { class: "form-error" }, t("networkError")));
  });
