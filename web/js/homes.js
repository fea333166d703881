// The pages a game opens from (a kind module's `home`: kinds/*.js), by name.
// Each home's scene is registered once at boot (main.js); whoever opens a
// game's home (the menu, a link with `?game=`) asks for it by the name its
// kind gives, and never names a game.
const HOMES = new Map();

export function registerHome(name, open) {
  HOMES.set(name, open);
}

/** Opens the home `name`; false when no page has that name. */
export function openHome(name) {
  const open = name ? HOMES.get(name) : null;
  if (!open) return false;
  open();
  return true;
}
