-- Requests and findings per UTC day (report.html's timeline, per-day chart and sparklines):
-- one row per day and bot row of the temporary table report_rows (pos: the row's position in
-- summary.sql's order), then one row per day over every bot request (pos = -1).
WITH d AS (
    SELECT bot, host, identity, (ts AT TIME ZONE 'UTC')::DATE AS day,
        count(*)                                                 AS requests,
        count(*) FILTER (WHERE verdict = 'disallowed')           AS disallowed,
        count(*) FILTER (WHERE verdict = 'disallowed_in_grace')  AS in_grace,
        count(*) FILTER (WHERE crawl_delay_breach)               AS crawl_delay,
        count(*) FILTER (WHERE request_rate_breach)              AS request_rate,
        count(*) FILTER (WHERE visit_breach)                     AS visit_time
    FROM judged
    GROUP BY ALL
)
SELECT k.pos, d.day, d.requests, d.disallowed, d.in_grace, d.crawl_delay, d.request_rate, d.visit_time
FROM d JOIN report_rows k USING (bot, host, identity)
UNION ALL
SELECT -1, day, sum(requests), sum(disallowed), sum(in_grace), sum(crawl_delay), sum(request_rate), sum(visit_time)
FROM d
GROUP BY day
ORDER BY 1, 2;
