-- One row per bot, host and identity (contract §6, §7, §10), worst offenders first: the
-- requests a spoofer made under a crawler's name are never counted as the crawler's.
-- Counts on the ids of requests; the window breaches come from window_measures
-- (measures.sql) for the bots and hosts with a limit only; the names are joined
-- afterwards.
WITH verdicts AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace,
        max(id) FILTER (WHERE value = 'unaudited')           AS unaudited,
        max(id) FILTER (WHERE value = 'disallowed_unreachable') AS unreachable,
        max(id) FILTER (WHERE value = 'allowed_unavailable')    AS unavailable,
        max(id) FILTER (WHERE value = 'user_triggered')         AS user_triggered
    FROM dict
),
per AS (
    SELECT
        r.bot_id,
        r.host_id,
        r.identity_code,
        count(*)                                                  AS requests,
        count(*) FILTER (WHERE r.robots_fetch)                    AS robots_fetches,
        count(*) FILTER (WHERE r.verdict_id = v.disallowed)       AS disallowed,
        count(*) FILTER (WHERE r.verdict_id = v.in_grace)         AS disallowed_in_grace,
        count(*) FILTER (WHERE r.visit_breach)                    AS visit_time_breaches,
        count(*) FILTER (WHERE r.verdict_id = v.unaudited)        AS unaudited,
        count(*) FILTER (WHERE r.verdict_id = v.unreachable)      AS disallowed_unreachable,
        count(*) FILTER (WHERE r.verdict_id = v.unavailable)      AS allowed_unavailable,
        count(*) FILTER (WHERE r.verdict_id = v.user_triggered)   AS user_triggered,
        min(r.ts)                                                 AS first_seen,
        max(r.ts)                                                 AS last_seen
    FROM requests r, verdicts v
    GROUP BY r.bot_id, r.host_id, r.identity_code
),
-- Distinct addresses, as a DISTINCT then a count: a hash aggregate that
-- spills to disk under the memory limit, where count(DISTINCT) over
-- millions of groups does not. A value is an id or a string, never both
-- (RequestsSchema).
ips AS (
    SELECT bot_id, host_id, identity_code, count(*) AS ips
    FROM (SELECT DISTINCT bot_id, host_id, identity_code, client_ip_id, client_ip FROM requests
          WHERE client_ip_id IS NOT NULL OR client_ip IS NOT NULL)
    GROUP BY bot_id, host_id, identity_code
),
breaches AS (
    SELECT bot_id, host_id, identity_code,
        count(*) FILTER (WHERE crawl_delay_breach)  AS crawl_delay_breaches,
        count(*) FILTER (WHERE request_rate_breach) AS request_rate_breaches
    FROM window_measures(false)
    GROUP BY bot_id, host_id, identity_code
),
counted AS (
    SELECT per.*,
        coalesce(b.crawl_delay_breaches, 0)  AS crawl_delay_breaches,
        coalesce(b.request_rate_breaches, 0) AS request_rate_breaches,
        coalesce(i.ips, 0)                   AS ips
    FROM per LEFT JOIN breaches b USING (bot_id, host_id, identity_code)
             LEFT JOIN ips i USING (bot_id, host_id, identity_code)
)
SELECT
    bot.value                  AS bot,
    coalesce(host.value, '')   AS host,
    ['unverified', 'verified', 'spoofed'][c.identity_code + 1] AS identity,
    -- a spoofed row's requests were not made by the operator (contract §10)
    CASE WHEN c.identity_code = 2 THEN NULL ELSE b.operator END AS operator,
    b.purpose,
    requests, robots_fetches, disallowed, disallowed_in_grace,
    crawl_delay_breaches, request_rate_breaches, visit_time_breaches,
    unaudited, ips, first_seen, last_seen,
    c.disallowed_unreachable, c.allowed_unavailable, c.user_triggered
FROM counted c
JOIN dict bot ON bot.id = c.bot_id
LEFT JOIN dict host ON host.id = c.host_id
LEFT JOIN bots b ON b.bot_id = c.bot_id
ORDER BY disallowed + disallowed_unreachable DESC, disallowed_in_grace DESC,
         crawl_delay_breaches + request_rate_breaches + visit_time_breaches DESC,
         requests DESC, bot, host, c.identity_code;
