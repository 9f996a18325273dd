-- The most requested disallowed paths (path and query as logged) of the bot rows of
-- report_rows marked paths, with the rule that disallowed the latest request of each:
--   $1  how many paths per row
-- total counts the row's distinct disallowed paths.
-- report_rows' bot rows by ids: the bot's dict id, each host id the row's host names
-- (-1 too for the empty host, whose requests have none: judged's host is
-- coalesce(name, '')), the identity.
-- Counting on ids and naming the few rows left at the end spares the query the view
-- judged and its twelve joins of dict, which with a hostile log's hundreds of thousands
-- of bot names outgrow DuckDB's memory limit.
WITH keyed AS (
    SELECT k.pos, k.paths, b.id AS bot_id, h.id AS host_id, k.identity
    FROM report_rows k
    JOIN dict b ON b.value = k.bot
    JOIN (SELECT id, value FROM dict UNION ALL SELECT -1, '') h ON h.value = k.host
),
ids AS (
    SELECT k.pos, r.target_id, r.target, count(*) AS n,
        arg_max(r.rule_id, r.ts) AS rule_id, arg_max(r.rule_line, r.ts) AS rule_line, max(r.ts) AS last
    FROM requests r
    JOIN keyed k ON r.bot_id = k.bot_id AND coalesce(r.host_id, -1) = k.host_id AND r.identity = k.identity
    WHERE k.paths AND r.verdict_id = (SELECT max(id) FROM dict WHERE value = 'disallowed')
    GROUP BY ALL
),
per AS (
    SELECT i.pos, coalesce(t.value, i.target, '') AS target, sum(i.n)::BIGINT AS n,
        arg_max(rule.value, i.last) AS rule, arg_max(i.rule_line, i.last) AS rule_line
    FROM ids i
    LEFT JOIN dict t ON t.id = i.target_id
    LEFT JOIN dict rule ON rule.id = i.rule_id
    GROUP BY ALL
)
SELECT pos, target, n, rule, rule_line, count(*) OVER (PARTITION BY pos) AS total
FROM per
QUALIFY row_number() OVER (PARTITION BY pos ORDER BY n DESC, target) <= $1
ORDER BY pos, n DESC, target;
