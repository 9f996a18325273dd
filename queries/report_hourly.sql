-- The counts report_timeline.sql draws, per UTC hour, for a period within one UTC day, when
-- report.html draws its charts by hour: report_daily.sql's view report_slots with hours for
-- days. report_base counts per day, so this reads the requests again; a one-day log is small.
CREATE OR REPLACE TEMP VIEW report_slots AS
SELECT r.bot_id, r.host_id, r.identity_code,
    date_trunc('hour', r.ts AT TIME ZONE 'UTC')   AS day,
    r.verdict_id,
    count(*)                                      AS requests,
    count(*) FILTER (WHERE m.crawl_delay_breach)  AS crawl_delay,
    count(*) FILTER (WHERE m.request_rate_breach) AS request_rate,
    count(*) FILTER (WHERE r.visit_breach)        AS visit_time,
    coalesce(sum(r.bytes), 0)                     AS bytes
FROM requests r
JOIN measures m ON m.rid = r.rid
GROUP BY ALL;
