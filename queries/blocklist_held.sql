-- The robots.txt rule each held-back verified crawler broke most (after blocklist.sql):
-- the reports name the group and rule, so that a reader sees whether the crawler already
-- has a group of its own that it ignores (then only its operator's controls or
-- --block-verified help). One row per bot and rule, most requests first; the program takes
-- the first of each bot.
-- The requests come from the view block_held_source (blocklist_source*.sql): the verified
-- claims' disallowed requests, n each row.
WITH held AS (
    SELECT coalesce(client_ip_id, -1) AS ip_id, coalesce(client_ip, '') AS ip
    FROM block_addresses WHERE held
),
per AS (
    SELECT r.bot_id, r.robots_group_id, r.rule_id, r.rule_line, sum(r.n)::BIGINT AS n
    FROM block_held_source r
    SEMI JOIN held h ON h.ip_id = coalesce(r.client_ip_id, -1) AND h.ip = coalesce(r.client_ip, '')
    GROUP BY ALL
    HAVING sum(r.n) > 0
)
SELECT bot.value AS bot, g.value AS robots_group, rule.value AS rule, per.rule_line, per.n
FROM per
LEFT JOIN dict bot ON bot.id = per.bot_id
LEFT JOIN dict g ON g.id = per.robots_group_id
LEFT JOIN dict rule ON rule.id = per.rule_id
ORDER BY bot, n DESC, rule_line;
