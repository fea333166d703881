// Numbers and durations as players read them. No DOM.
import { gameName, findGame, levelName } from "./catalog.js";
import { getLang, t } from "./i18n.js";

/** m:ss, or m:ss.t with tenths. */
export function fmtTime(ms, tenths = false) {
  ms = Math.max(0, ms);
  const totalS = tenths ? ms / 1000 : Math.floor(ms / 1000);
  const m = Math.floor(totalS / 60);
  const s = totalS - m * 60;
  const sText = tenths ? s.toFixed(1).padStart(4, "0") : String(Math.floor(s)).padStart(2, "0");
  return `${m}:${sText}`;
}

/** "2 d 3 h", "3 h 5 min", "5 min 9 s": how long until a board resets. */
export function fmtDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400), h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60), s = total % 60;
  if (d > 0) return t("dur.d", { d, h });
  if (h > 0) return t("dur.h", { h, m });
  return t("dur.m", { m, s });
}

/** A mode's name; a mode this client has no name for shows its id. */
export function modeName(mode) {
  const key = `mode.${mode}`;
  const name = t(key);
  return name === key ? String(mode) : name;
}

/** A game's name in the page's language (the id when the catalog does not list it). */
export function gameLabel(games, id) {
  return gameName(findGame(games, id), getLang()) || id;
}

/** "MindPad · Normal", "Counting · Normal · Level 2: Bee": the game, mode (and level) a room or run is played in. */
export function gameAndMode(games, game, mode, level = null) {
  const base = `${gameLabel(games, game)} · ${modeName(mode)}`;
  if (!Number.isInteger(level)) return base;
  return `${base} · ${t("game.levelN", { n: level, name: levelName(findGame(games, game), level, getLang()) })}`;
}

/** A rank value (`rank_value` of a board where lower is better), to three places exactly (the
 * score's thousandths, score / 1000), so two entries that rank apart never show the same value
 * and no half is rounded two ways. */
export function fmtRank(v) {
  if (typeof v !== "number" || !Number.isFinite(v)) return "—";
  return v.toLocaleString(getLang() === "zh" ? "zh-CN" : "en", { maximumFractionDigits: 3 });
}
