-- The most requested disallowed paths (path and query as logged) of the bot rows of
-- report_rows marked paths, with the rule that disallowed the latest request of each:
--   $1  how many paths per row
-- total counts the row's distinct disallowed paths.
WITH per AS (
    SELECT k.pos, coalesce(j.target, '') AS target, count(*) AS n,
        arg_max(j.rule, j.ts) AS rule, arg_max(j.rule_line, j.ts) AS rule_line
    FROM judged j JOIN report_rows k USING (bot, host, identity)
    WHERE k.paths AND j.verdict = 'disallowed'
    GROUP BY ALL
)
SELECT pos, target, n, rule, rule_line, count(*) OVER (PARTITION BY pos) AS total
FROM per
QUALIFY row_number() OVER (PARTITION BY pos ORDER BY n DESC, target) <= $1
ORDER BY pos, n DESC, target;
