-- The most frequent User-Agent headers of each bot row of report_rows:
--   $1  how many per row
-- total counts the row's distinct User-Agents.
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
    SELECT k.pos, r.user_agent_id, r.user_agent, count(*) AS n
    FROM requests r
    JOIN keyed k ON r.bot_id = k.bot_id AND coalesce(r.host_id, -1) = k.host_id AND r.identity = k.identity
    GROUP BY ALL
),
per AS (
    SELECT i.pos, coalesce(ua.value, i.user_agent, '') AS user_agent, sum(i.n)::BIGINT AS n
    FROM ids i LEFT JOIN dict ua ON ua.id = i.user_agent_id
    GROUP BY ALL
)
SELECT pos, user_agent, n, count(*) OVER (PARTITION BY pos) AS total
FROM per
QUALIFY row_number() OVER (PARTITION BY pos ORDER BY n DESC, user_agent) <= $1
ORDER BY pos, n DESC, user_agent;
