-- bot_ops: each bot's operator as availability.sql keys robots.txt availability by (an
-- operator's crawlers share one cached robots.txt; a bot without an operator is its own),
-- and whether it is a user-triggered fetcher, to which robots.txt does not apply.
-- op_key is the operator as a number, so that the joins and windows of availability.sql key on integers
-- (a log with millions of invented bot names has as many "operators"): -1, -2, ... for a
-- named operator, the bot's id for a bot without one.
CREATE OR REPLACE TEMP TABLE bot_ops AS
SELECT b.bot_id,
    coalesce(nullif(b.operator, ''), b.bot) AS operator,
    CASE WHEN nullif(b.operator, '') IS NULL THEN b.bot_id::BIGINT
         ELSE -dense_rank() OVER (ORDER BY nullif(b.operator, '') NULLS LAST) END AS op_key,
    coalesce(b.user_triggered, false)       AS user_triggered
FROM bots b;
