-- The most frequent User-Agent headers of each bot row of report_rows:
--   $1  how many per row
-- total counts the row's distinct User-Agents.
WITH per AS (
    SELECT k.pos, coalesce(j.user_agent, '') AS user_agent, count(*) AS n
    FROM judged j JOIN report_rows k USING (bot, host, identity)
    GROUP BY ALL
)
SELECT pos, user_agent, n, count(*) OVER (PARTITION BY pos) AS total
FROM per
QUALIFY row_number() OVER (PARTITION BY pos ORDER BY n DESC, user_agent) <= $1
ORDER BY pos, n DESC, user_agent;
