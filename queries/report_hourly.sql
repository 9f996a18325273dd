-- Requests and findings per UTC hour, for a period within one UTC day, when report.html draws
-- its charts by hour: report_daily.sql's rows and columns with hours for days. report_base
-- counts per day, so this reads the requests again; a one-day log is small.
WITH v AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace
    FROM dict
),
d AS (
    SELECT r.bot_id, r.host_id, r.identity_code,
        date_trunc('hour', r.ts AT TIME ZONE 'UTC')              AS day,
        count(*)                                                AS requests,
        count(*) FILTER (WHERE r.verdict_id = v.disallowed)     AS disallowed,
        count(*) FILTER (WHERE r.verdict_id = v.in_grace)       AS in_grace,
        count(*) FILTER (WHERE m.crawl_delay_breach)            AS crawl_delay,
        count(*) FILTER (WHERE m.request_rate_breach)           AS request_rate,
        count(*) FILTER (WHERE r.visit_breach)                  AS visit_time
    FROM requests r
    JOIN measures m ON m.rid = r.rid, v
    GROUP BY ALL
),
named AS (
    SELECT bot.value AS bot, coalesce(host.value, '') AS host,
        ['unverified', 'verified', 'spoofed'][d.identity_code + 1] AS identity, d.*
    FROM d
    JOIN dict bot ON bot.id = d.bot_id
    LEFT JOIN dict host ON host.id = d.host_id
)
SELECT k.pos, n.day, n.requests, n.disallowed, n.in_grace, n.crawl_delay, n.request_rate, n.visit_time
FROM named n JOIN report_rows k USING (bot, host, identity)
UNION ALL
SELECT -1, day, sum(requests), sum(disallowed), sum(in_grace), sum(crawl_delay), sum(request_rate), sum(visit_time)
FROM d
GROUP BY day
ORDER BY 1, 2;
