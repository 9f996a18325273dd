-- What --what-if FILE would change (after whatif_pairs.sql filled whatif_disallowed with
-- the User-Agent and target pairs the proposed robots.txt disallows): per bot and host, the
-- requests a second audit with --robots FILE would judge otherwise, and the top paths of
-- each kind ($1 of them). robots.txt's availability stands whatever the file says, and a
-- /robots.txt fetch is never disallowed. One row per count or path: (bot, host, kind, path, n).
WITH excluded AS (
    -- robots.txt's availability stands whatever the file says
    SELECT rid FROM availability WHERE unreachable
    UNION
    SELECT d.rid FROM during d JOIN robots_status p USING (period_id) WHERE p.kind = 'unavailable'
),
req AS (
    SELECT r.rid, r.bot_id, r.host_id, r.target_id, r.target,
        v.value IN ('disallowed', 'disallowed_in_grace') AS now_disallowed,
        w.user_agent_id IS NOT NULL OR w.user_agent IS NOT NULL OR w.target_id IS NOT NULL OR w.target IS NOT NULL AS file_disallows,
        r.robots_fetch
    FROM requests r
    JOIN dict v ON v.id = r.verdict_id
    LEFT JOIN whatif_disallowed w
        ON  r.user_agent_id IS NOT DISTINCT FROM w.user_agent_id AND r.user_agent IS NOT DISTINCT FROM w.user_agent
        AND r.target_id IS NOT DISTINCT FROM w.target_id AND r.target IS NOT DISTINCT FROM w.target
),
decided AS (
    SELECT req.*,
        file_disallows AND NOT robots_fetch AND rid NOT IN (SELECT rid FROM excluded) AS would_disallow
    FROM req
),
changed AS (
    SELECT bot_id, host_id, target_id, target,
        CASE WHEN would_disallow AND NOT now_disallowed THEN 'newly_disallowed'
             WHEN now_disallowed AND NOT would_disallow THEN 'newly_allowed' END AS kind
    FROM decided
),
counts AS (
    SELECT bot_id, host_id, 'requests' AS kind, NULL::VARCHAR AS path, count(*) AS n FROM decided GROUP BY ALL
    UNION ALL
    SELECT bot_id, host_id, kind, NULL, count(*) FROM changed WHERE kind IS NOT NULL GROUP BY ALL
),
paths AS (
    SELECT bot_id, host_id, kind, target_id, target, count(*) AS n FROM changed WHERE kind IS NOT NULL GROUP BY ALL
),
top AS (
    SELECT bot_id, host_id,
        CASE kind WHEN 'newly_disallowed' THEN 'top_disallowed' ELSE 'top_allowed' END AS kind,
        coalesce(t.value, p.target) AS path, n,
        row_number() OVER (PARTITION BY bot_id, host_id, kind ORDER BY n DESC, coalesce(t.value, p.target)) AS rank
    FROM paths p LEFT JOIN dict t ON t.id = p.target_id
),
picked AS (
    SELECT bot_id, host_id, kind, path, n, 0 AS rank FROM counts
    UNION ALL
    SELECT bot_id, host_id, kind, path, n, rank FROM top WHERE rank <= $1
),
ranked AS (
    SELECT *,
        coalesce(sum(n) FILTER (WHERE kind = 'newly_disallowed') OVER (PARTITION BY bot_id, host_id), 0) AS nd,
        coalesce(sum(n) FILTER (WHERE kind = 'newly_allowed') OVER (PARTITION BY bot_id, host_id), 0) AS na
    FROM picked
)
SELECT bot.value AS bot, coalesce(host.value, '') AS host, x.kind, x.path, x.n
FROM ranked x
JOIN dict bot ON bot.id = x.bot_id
LEFT JOIN dict host ON host.id = x.host_id
ORDER BY x.nd DESC, x.na DESC, bot.value, host.value, x.kind = 'requests' DESC, x.kind, x.rank
