-- Requests and findings per UTC day (report.html's timeline, per-day chart and sparklines),
-- from report_base (report_base.sql): one row per day and bot row of the temporary table
-- report_rows (pos: the row's position in summary.sql's order), then one row per day over
-- every bot request (pos = -1).
WITH v AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace
    FROM dict
),
d AS (
    SELECT b.bot_id, b.host_id, b.identity_code, b.day,
        sum(b.requests)                                         AS requests,
        sum(b.requests) FILTER (WHERE b.verdict_id = v.disallowed) AS disallowed,
        sum(b.requests) FILTER (WHERE b.verdict_id = v.in_grace)   AS in_grace,
        sum(b.crawl_delay)                                      AS crawl_delay,
        sum(b.request_rate)                                     AS request_rate,
        sum(b.visit_time)                                       AS visit_time
    FROM report_base b, v
    GROUP BY ALL
),
named AS (
    SELECT bot.value AS bot, coalesce(host.value, '') AS host,
        ['unverified', 'verified', 'spoofed'][d.identity_code + 1] AS identity, d.*
    FROM d
    JOIN dict bot ON bot.id = d.bot_id
    LEFT JOIN dict host ON host.id = d.host_id
)
SELECT k.pos, n.day, n.requests, coalesce(n.disallowed, 0), coalesce(n.in_grace, 0), n.crawl_delay, n.request_rate, n.visit_time
FROM named n JOIN report_rows k USING (bot, host, identity)
UNION ALL
SELECT -1, day, sum(requests), coalesce(sum(disallowed), 0), coalesce(sum(in_grace), 0), sum(crawl_delay), sum(request_rate), sum(visit_time)
FROM d
GROUP BY day
ORDER BY 1, 2;
