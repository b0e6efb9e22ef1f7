// The page for someone not signed in: one click as a guest, or log in / register.
import { ApiError, enterAsGuest, login, register } from "./api";
import { el } from "./dom";
import { label, t } from "./i18n";
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, type User } from "./protocol";

type Submit = (name: string, password: string) => Promise<User>;

export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.info.message : t("networkError");
}

/** A name + password form; ``onDone`` gets the signed-in user. */
export function credentialsForm(kind: "login" | "register", onDone: (user: User) => void, onCancel?: () => void): HTMLFormElement {
  const submit: Submit = kind === "login" ? login : register;
  const name = el("input", {
    name: "name",
    autocomplete: "username",
    required: true,
    maxlength: String(NAME_MAX_LENGTH),
    "data-testid": `${kind}-name`,
  });
  const password = el("input", {
    name: "password",
    type: "password",
    autocomplete: kind === "login" ? "current-password" : "new-password",
    required: true,
    minlength: kind === "register" ? String(PASSWORD_MIN_LENGTH) : undefined,
    "data-testid": `${kind}-password`,
  });
  const problem = el("p", { class: "form-error", role: "alert", "data-testid": `${kind}-error` });
  const button = label(el("button", { type: "submit", class: "primary" }), kind === "login" ? "login" : "register");
  const form = el(
    "form",
    { class: "credentials", "data-testid": `${kind}-form` },
    label(el("h2"), kind === "login" ? "login" : "createAccount"),
    el("label", {}, label(el("span"), "name"), name),
    kind === "register" ? label(el("small", { class: "hint" }), "nameHint") : null,
    el("label", {}, label(el("span"), "password"), password),
    kind === "register" ? label(el("small", { class: "hint" }), "passwordHint") : null,
    problem,
    el("div", { class: "actions" }, button, onCancel ? label(el("button", { type: "button" }), "cancel") : null),
  );
  form.querySelector("button[type=button]")?.addEventListener("click", () => onCancel?.());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.textContent = "";
    try {
      onDone(await submit(name.value.trim(), password.value));
    } catch (error) {
      problem.textContent = errorText(error);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function entryView(onSignedIn: (user: User) => void): HTMLElement {
  const problem = el("p", { class: "form-error", role: "alert" });
  const guestButton = label(el("button", { class: "primary big", "data-testid": "guest" }), "playAsGuest");
  guestButton.addEventListener("click", async () => {
    guestButton.disabled = true;
    try {
      onSignedIn(await enterAsGuest());
    } catch (error) {
      problem.textContent = errorText(error);
      guestButton.disabled = false;
    }
  });
  return el(
    "main",
    { class: "entry" },
    el("section", { class: "card guest" }, label(el("p", { class: "tagline" }), "tagline"), guestButton, label(el("p", { class: "hint" }), "guestHint"), problem),
    el("section", { class: "card" }, credentialsForm("login", onSignedIn)),
    el("section", { class: "card" }, credentialsForm("register", onSignedIn)),
  );
}
