-- 0014: an answer picked among the readings offered (issue 43, "a choice
-- instead of a refusal"). A drawing read unsurely but with a few plausible
-- digits is not refused: the server offers them (`choice`), the player taps
-- the one they meant (`choose`), and that is the answer, graded as usual and
-- kept with the drawing. `choice` records that a choice was offered, what
-- was offered and what was tapped: one element per place the player picked
-- (0 for a single digit, the digit's index in a number), its options as
-- offered, likeliest first, and the digit tapped,
-- `[{"place":1,"options":[1,7],"tapped":7}]`. NULL when no choice was
-- offered: an answer read surely, typed or tapped. Only drawn answers have
-- one. Older rows stay NULL.
-- Never edit once landed: add 0015_… instead.
ALTER TABLE result_answers
    ADD COLUMN choice jsonb,
    ADD CONSTRAINT result_answers_choice_check CHECK (
        choice IS NULL
        OR (input = 'drawn' AND jsonb_typeof(choice) = 'array' AND jsonb_array_length(choice) BETWEEN 1 AND 8));
