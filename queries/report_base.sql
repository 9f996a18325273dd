-- report_base: the bot requests counted per bot row (bot, host, identity), UTC day, robots.txt
-- version, verdict and deciding rule, with their window breaches: the one pass over every
-- request that the per-day charts, the versions and the broken rules of report.html and
-- report.md share (report_daily.sql and report_timeline.sql, report_versions.sql, report_rules.sql). Ids, not names:
-- the names are joined to the few aggregated rows afterwards.
CREATE OR REPLACE TEMP TABLE report_base AS
SELECT
    r.bot_id, r.host_id, r.identity_code,
    (r.ts AT TIME ZONE 'UTC')::DATE               AS day,
    r.robots_version_id, r.verdict_id, r.rule_id, r.rule_line,
    count(*)                                      AS requests,
    count(*) FILTER (WHERE m.crawl_delay_breach)  AS crawl_delay,
    count(*) FILTER (WHERE m.request_rate_breach) AS request_rate,
    count(*) FILTER (WHERE r.visit_breach)        AS visit_time,
    coalesce(sum(r.bytes), 0)                     AS bytes   -- a NULL size counts 0
FROM requests r
JOIN measures m ON m.rid = r.rid
GROUP BY ALL;
