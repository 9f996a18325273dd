-- One row per breach of Crawl-delay, Request-rate or Visit-time, and per short gap of a
-- crawler whose operator says it ignores Crawl-delay (kind crawl-delay-unsupported)
-- (breaches.csv): the measured value against the limit, from the rows of
-- breaches_rows.sql with their names (the columns of the view judged).
-- resolution is the resolution of the log's timestamps ('1s' when every
-- one is a whole second): a crawl-delay gap measured as 0.0 then means
-- "within the same second", not "no gap at all".
WITH res AS (
    SELECT CASE WHEN bool_and(epoch_us(ts) % 1000000 = 0) THEN '1s' ELSE '1us' END AS resolution
    FROM requests
),
named AS (
    SELECT ts, coalesce(host, '') AS host, coalesce(client_ip_name, client_ip) AS client_ip, bot,
        identity, robots_version, coalesce(target_name, target) AS target, file, line,
        visit_window, crawl_delay, rate_requests, rate_seconds, visit_breach,
        gap_us, rate_count, crawl_delay_breach, request_rate_breach, crawl_delay_unsupported
    FROM breach_rows
)
SELECT ts, host, client_ip, bot, identity, kind, measured, limit_value, unit, res.resolution, robots_version, target, file, line
FROM (
    SELECT ts, host, client_ip, bot, identity, 'crawl-delay' AS kind,
           round(gap_us / 1e6, 6)::VARCHAR AS measured, crawl_delay::VARCHAR AS limit_value,
           'seconds since previous request' AS unit, robots_version, target, file, line
    FROM named WHERE crawl_delay_breach
    UNION ALL
    -- Not a breach: the crawler's operator says it ignores Crawl-delay.
    SELECT ts, host, client_ip, bot, identity, 'crawl-delay-unsupported',
           round(gap_us / 1e6, 6)::VARCHAR, crawl_delay::VARCHAR,
           'seconds since previous request', robots_version, target, file, line
    FROM named WHERE crawl_delay_unsupported
    UNION ALL
    SELECT ts, host, client_ip, bot, identity, 'request-rate',
           rate_count::VARCHAR, rate_requests::VARCHAR || '/' || rate_seconds::VARCHAR || 's',
           'requests in window', robots_version, target, file, line
    FROM named WHERE request_rate_breach
    UNION ALL
    SELECT ts, host, client_ip, bot, identity, 'visit-time',
           strftime(ts AT TIME ZONE 'UTC', '%H:%M:%S'), visit_window,
           'UTC time of day', robots_version, target, file, line
    FROM named WHERE visit_breach
), res
ORDER BY ts, file, line, kind;
