-- One row per bot and host (contract §6, §7), worst offenders first.
-- Aggregates on the ids of measured (measures.sql), the windows computed on
-- the way, and joins the names afterwards.
WITH verdicts AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace,
        max(id) FILTER (WHERE value = 'unaudited')           AS unaudited
    FROM dict
),
per AS (
    SELECT
        r.bot_id,
        r.host_id,
        count(*)                                                  AS requests,
        count(*) FILTER (WHERE r.robots_fetch)                    AS robots_fetches,
        count(*) FILTER (WHERE r.verdict_id = v.disallowed)       AS disallowed,
        count(*) FILTER (WHERE r.verdict_id = v.in_grace)         AS disallowed_in_grace,
        count(*) FILTER (WHERE r.crawl_delay_breach)              AS crawl_delay_breaches,
        count(*) FILTER (WHERE r.request_rate_breach)             AS request_rate_breaches,
        count(*) FILTER (WHERE r.visit_breach)                    AS visit_time_breaches,
        count(*) FILTER (WHERE r.verdict_id = v.unaudited)        AS unaudited,
        count(DISTINCT r.client_ip_id)                            AS ips,
        min(r.ts)                                                 AS first_seen,
        max(r.ts)                                                 AS last_seen
    FROM measured r, verdicts v
    GROUP BY r.bot_id, r.host_id
)
SELECT
    bot.value                  AS bot,
    coalesce(host.value, '')   AS host,
    b.operator,
    b.purpose,
    requests, robots_fetches, disallowed, disallowed_in_grace,
    crawl_delay_breaches, request_rate_breaches, visit_time_breaches,
    unaudited, ips, first_seen, last_seen
FROM per
JOIN dict bot ON bot.id = per.bot_id
LEFT JOIN dict host ON host.id = per.host_id
LEFT JOIN bots b ON b.bot = bot.value
ORDER BY disallowed DESC, disallowed_in_grace DESC,
         crawl_delay_breaches + request_rate_breaches + visit_time_breaches DESC,
         requests DESC, bot, host;
