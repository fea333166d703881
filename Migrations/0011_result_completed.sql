-- 0011: whether a run ended by the rules (Normal's last question,
-- Survival's miss, Time Attack's clock, the path finder's goal) rather than
-- by the racer leaving. The replay (GET /api/races/{race}) says so; rows
-- stored before this migration have NULL and the replay infers it from
-- what they hold. Never edit once landed: add 0012_… instead.
ALTER TABLE game_results ADD COLUMN completed boolean;
