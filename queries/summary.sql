-- One row per bot and host (contract §6, §7), worst offenders first.
SELECT
    j.bot,
    coalesce(j.host, '') AS host,
    any_value(b.operator)                                    AS operator,
    any_value(b.purpose)                                     AS purpose,
    count(*)                                                 AS requests,
    count(*) FILTER (WHERE robots_fetch)                     AS robots_fetches,
    count(*) FILTER (WHERE verdict = 'disallowed')           AS disallowed,
    count(*) FILTER (WHERE verdict = 'disallowed_in_grace')  AS disallowed_in_grace,
    count(*) FILTER (WHERE crawl_delay_breach)               AS crawl_delay_breaches,
    count(*) FILTER (WHERE request_rate_breach)              AS request_rate_breaches,
    count(*) FILTER (WHERE visit_breach)                     AS visit_time_breaches,
    count(*) FILTER (WHERE verdict = 'unaudited')            AS unaudited,
    count(DISTINCT client_ip)                                AS ips,
    min(ts)                                                  AS first_seen,
    max(ts)                                                  AS last_seen
FROM judged j
LEFT JOIN bots b USING (bot)
GROUP BY j.bot, j.host
ORDER BY disallowed DESC, disallowed_in_grace DESC,
         crawl_delay_breaches + request_rate_breaches + visit_time_breaches DESC,
         requests DESC, j.bot, j.host;
