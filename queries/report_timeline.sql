-- Requests and findings per slot (report.html's timeline, per-day chart and sparklines):
-- per UTC day, or per hour when one day is drawn by hours, from the view report_slots that
-- report_daily.sql or report_hourly.sql makes. One row per slot and bot row of the temporary
-- table report_rows (pos: the row's position in summary.sql's order), then one row per slot
-- over every bot request (pos = -1). The slot's column is named day either way. The last
-- column is the response bytes of the slot (a NULL size counts 0).
WITH v AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace
    FROM dict
),
d AS (
    SELECT s.bot_id, s.host_id, s.identity_code, s.day,
        sum(s.requests)                                         AS requests,
        sum(s.requests) FILTER (WHERE s.verdict_id = v.disallowed) AS disallowed,
        sum(s.requests) FILTER (WHERE s.verdict_id = v.in_grace)   AS in_grace,
        sum(s.crawl_delay)                                      AS crawl_delay,
        sum(s.request_rate)                                     AS request_rate,
        sum(s.visit_time)                                       AS visit_time,
        sum(s.bytes)                                            AS bytes
    FROM report_slots s, v
    GROUP BY ALL
),
named AS (
    SELECT bot.value AS bot, coalesce(host.value, '') AS host,
        ['unverified', 'verified', 'spoofed'][d.identity_code + 1] AS identity, d.*
    FROM d
    JOIN dict bot ON bot.id = d.bot_id
    LEFT JOIN dict host ON host.id = d.host_id
)
SELECT k.pos, n.day, n.requests, coalesce(n.disallowed, 0), coalesce(n.in_grace, 0), n.crawl_delay, n.request_rate, n.visit_time,
    n.bytes
FROM named n JOIN report_rows k USING (bot, host, identity)
UNION ALL
SELECT -1, day, sum(requests), coalesce(sum(disallowed), 0), coalesce(sum(in_grace), 0), sum(crawl_delay), sum(request_rate), sum(visit_time),
    sum(bytes)
FROM d
GROUP BY day
ORDER BY 1, 2;
