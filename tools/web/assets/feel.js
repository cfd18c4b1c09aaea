// damka-web's feel: sounds made with WebAudio (no sound files to ship), the mute toggle and
// the colour theme (both remembered in localStorage), the tab title when it is the player's
// move in a background tab, and the room link's copy button.

const $ = (sel) => document.querySelector(sel);
const MUTE_KEY = "damka-mute";
const THEME_KEY = "damka-theme";
const TITLE = document.title;

function storage(fn) {
  try {
    return fn(window.localStorage);
  } catch (e) {
    return null; // storage refused (private mode): the choice lasts as long as the page
  }
}

let audio = null;
let muted = storage((s) => s.getItem(MUTE_KEY)) === "1";

/** The sounds played so far, for the browser tests (window.damkaSounds). */
const played = [];
window.damkaSounds = played;

// Each sound: [frequency Hz, start s, length s] notes of one oscillator type.
const SOUNDS = {
  move: ["triangle", [[520, 0, 0.07]]],
  capture: ["square", [[330, 0, 0.06], [250, 0.07, 0.08]]],
  crown: ["sine", [[660, 0, 0.1], [880, 0.1, 0.1], [1100, 0.2, 0.16]]],
  end: ["sine", [[440, 0, 0.18], [554, 0.18, 0.18], [659, 0.36, 0.3]]],
  lowtime: ["square", [[880, 0, 0.05], [880, 0.12, 0.05]]],
  refused: ["sawtooth", [[140, 0, 0.09]]],
};

/** Plays one of SOUNDS unless muted. A browser lets audio start only after a user gesture:
 *  before that the sound is silently skipped. */
export function sound(kind) {
  played.push(kind);
  if (played.length > 200) played.shift();
  if (muted || !SOUNDS[kind]) return;
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const [type, notes] = SOUNDS[kind];
    const now = audio.currentTime;
    for (const [freq, start, length] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch (e) {
    // No audio on this device: the game goes on silently.
  }
}

function drawMute() {
  const b = $('[data-action="mute"]');
  if (!b) return;
  b.setAttribute("aria-pressed", String(muted));
  b.textContent = muted ? "Sound off" : "Sound on";
  b.title = muted ? "Turn the sounds on" : "Turn the sounds off";
}

/** The mute button. */
export function toggleMute() {
  muted = !muted;
  storage((s) => s.setItem(MUTE_KEY, muted ? "1" : "0"));
  drawMute();
}

export function isMuted() {
  return muted;
}

// The theme: "light", "dark", or nothing stored (the system's setting).
function systemDark() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
}

function currentTheme() {
  const stored = storage((s) => s.getItem(THEME_KEY));
  if (stored === "light" || stored === "dark") return stored;
  return systemDark() ? "dark" : "light";
}

function drawTheme() {
  const theme = currentTheme();
  document.documentElement.dataset.theme = theme;
  const b = $('[data-action="theme"]');
  if (b) {
    b.textContent = theme === "dark" ? "Light theme" : "Dark theme";
    b.setAttribute("aria-pressed", String(theme === "dark"));
  }
}

/** The theme button: the other theme, remembered; back to the system's when they agree. */
export function toggleTheme() {
  const next = currentTheme() === "dark" ? "light" : "dark";
  storage((s) => (next === (systemDark() ? "dark" : "light") ? s.removeItem(THEME_KEY) : s.setItem(THEME_KEY, next)));
  drawTheme();
}

let yourMove = false;

/** The tab's title says "Your move" while it is the player's move and the tab is hidden. */
export function setYourMove(mine) {
  yourMove = mine;
  document.title = mine && document.hidden ? "Your move · damka" : TITLE;
}

document.addEventListener("visibilitychange", () => setYourMove(yourMove));

/** The copy button beside the room link: the clipboard where the browser allows it, else
 *  the link selected for the person to copy. */
export function copyLink() {
  const link = $("#room-link");
  const button = $('[data-action="copy-link"]');
  const text = link.href;
  const done = (ok) => {
    button.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => (button.textContent = "Copy"), 2000);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => done(true), () => done(selectLink(link)));
  } else {
    done(selectLink(link));
  }
}

function selectLink(link) {
  const range = document.createRange();
  range.selectNodeContents(link);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
  try {
    return document.execCommand("copy");
  } catch (e) {
    return false;
  }
}

if (window.matchMedia) {
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", drawTheme);
}
drawMute();
drawTheme();
