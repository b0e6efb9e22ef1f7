// The header's two look buttons: "Ansicht" opens the dialog, "♪" switches the music on
// and off at once (seed 001: "schaltet die Musik schnell an und aus").
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import { musicPlaying, PIECES, startMusic, stopMusic } from "../music/music";
import { applyLook, look, onLookChange, setLook } from "./look";
import { BULLET_BOARDS, HEXAGON_FRAMES } from "./themes";
import { lt } from "./texts";

/** Start or stop the sound to match the stored choice. */
function followMusic(): void {
  const { musicOn, music } = look();
  if (!musicOn) {
    if (musicPlaying()) stopMusic();
    return;
  }
  startMusic(music);
}

export function lookControls(): HTMLElement {
  applyLook();
  const dialog = lookDialog();
  const open = el("button", { type: "button", "data-testid": "open-look", "aria-haspopup": "dialog" });
  open.addEventListener("click", () => {
    dialog.redraw();
    dialog.showModal();
  });
  const music = el("button", { type: "button", class: "music-switch", "data-testid": "music-switch" });
  const draw = (): void => {
    // Icon plus words; narrow headers show the icon only (the words stay the accessible name).
    const musicWords = look().musicOn ? lt("musicOn") : lt("musicOff");
    open.replaceChildren(el("span", { class: "icon", "aria-hidden": "true" }, "◐ "), el("span", { class: "words" }, lt("look")));
    open.setAttribute("aria-label", lt("look"));
    music.replaceChildren(el("span", { class: "icon", "aria-hidden": "true" }, "♪"), el("span", { class: "words" }, musicWords.replace(/^♪\s*/, " ")));
    music.setAttribute("aria-label", musicWords);
    music.setAttribute("aria-pressed", String(look().musicOn));
    music.title = lt("musicSwitch");
  };
  music.addEventListener("click", () => {
    setLook({ musicOn: !look().musicOn });
    followMusic();
  });
  onLookChange(draw);
  onLangChange(draw);
  draw();
  if (look().musicOn) {
    // Music chosen on an earlier visit: browsers let it start only after the first click or key.
    const resume = (): void => {
      window.removeEventListener("pointerdown", resume, true);
      window.removeEventListener("keydown", resume, true);
      if (look().musicOn && !musicPlaying()) followMusic();
    };
    window.addEventListener("pointerdown", resume, true);
    window.addEventListener("keydown", resume, true);
  }
  return el("div", { class: "look-controls" }, open, music, dialog);
}

type LookDialog = HTMLDialogElement & { redraw(): void };

/** The Ansicht dialog: a native <dialog>, so Escape closes it and focus stays inside. */
function lookDialog(): LookDialog {
  const dialog = el("dialog", { class: "card look-dialog", "data-testid": "look-dialog", "aria-labelledby": "look-title" }) as LookDialog;
  const name = (entry: { de: string; en: string }) => (lang() === "en" ? entry.en : entry.de);
  const choice = (label: string, pressed: boolean, testid: string, pick: () => void, swatch?: string): HTMLButtonElement => {
    const button = el("button", { type: "button", "aria-pressed": String(pressed), "data-testid": testid },
      swatch ? el("span", { class: "swatch", style: `background: ${swatch}`, "aria-hidden": "true" }) : null, label);
    button.addEventListener("click", () => {
      pick();
      dialog.redraw();
      // Keep the keyboard where it was after the redraw.
      dialog.querySelector<HTMLButtonElement>(`[data-testid="${testid}"]`)?.focus();
    });
    return button;
  };
  const group = (legend: string, ...children: HTMLElement[]) => el("fieldset", {}, el("legend", {}, legend), el("div", { class: "choices" }, ...children));
  dialog.redraw = () => {
    const now = look();
    const frames = Object.entries(HEXAGON_FRAMES).map(([key, theme]) =>
      choice(name(theme), now.hexFrame === key, `frame-${key}`, () => setLook({ hexFrame: key as keyof typeof HEXAGON_FRAMES }), theme.frame));
    const boards = Object.entries(BULLET_BOARDS).map(([key, theme]) =>
      choice(name(theme), now.bulletBoard === key, `bullet-${key}`, () => setLook({ bulletBoard: key as keyof typeof BULLET_BOARDS }), theme.frame));
    const depths = (["2d", "3d"] as const).map((depth) => choice(depth.toUpperCase(), now.bulletDepth === depth, `depth-${depth}`, () => setLook({ bulletDepth: depth })));
    const names = el("input", { type: "checkbox", "data-testid": "look-names", checked: now.cellNames });
    names.addEventListener("change", () => setLook({ cellNames: names.checked }));
    const pieces = PIECES.map((piece, index) =>
      choice(name(piece), now.music === index, `music-${index}`, () => {
        setLook({ music: index, musicOn: true });
        startMusic(index);
      }));
    const musicOn = el("input", { type: "checkbox", "data-testid": "look-music-on", checked: now.musicOn });
    musicOn.addEventListener("change", () => {
      setLook({ musicOn: musicOn.checked });
      followMusic();
    });
    const close = el("button", { type: "button", "data-testid": "close-look" }, lt("close"));
    close.addEventListener("click", () => dialog.close());
    dialog.replaceChildren(
      el("h2", { id: "look-title" }, lt("lookTitle")),
      el("p", { class: "hint" }, lt("lookHint")),
      group(lt("hexFrame"), ...frames),
      group(lt("bulletBoard"), ...boards),
      group(`Battlebullet – ${lt("depth")}`, ...depths),
      el("p", {}, el("label", {}, names, " ", lt("names"))),
      group(lt("music"), ...pieces),
      el("p", {}, el("label", {}, musicOn, " ", lt("musicOn"))),
      el("p", {}, close),
    );
  };
  dialog.redraw();
  return dialog;
}
