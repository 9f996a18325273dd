-- One row per breach of Crawl-delay, Request-rate or Visit-time
-- (breaches.csv, contract §2.2): the measured value against the limit.
-- resolution is the resolution of the log's timestamps ('1s' when every
-- one is a whole second): a crawl-delay gap measured as 0.0 then means
-- "within the same second" (contract §6).
WITH res AS (
    SELECT CASE WHEN bool_and(epoch_us(ts) % 1000000 = 0) THEN '1s' ELSE '1us' END AS resolution
    FROM requests
)
SELECT ts, host, client_ip, bot, identity, kind, measured, limit_value, unit, res.resolution, robots_version, target, file, line
FROM (
    SELECT ts, host, client_ip, bot, identity, 'crawl-delay' AS kind,
           round(gap_us / 1e6, 6)::VARCHAR AS measured, crawl_delay::VARCHAR AS limit_value,
           'seconds since previous request' AS unit, robots_version, target, file, line
    FROM judged WHERE crawl_delay_breach
    UNION ALL
    SELECT ts, host, client_ip, bot, identity, 'request-rate',
           rate_count::VARCHAR, rate_requests::VARCHAR || '/' || rate_seconds::VARCHAR || 's',
           'requests in window', robots_version, target, file, line
    FROM judged WHERE request_rate_breach
    UNION ALL
    SELECT ts, host, client_ip, bot, identity, 'visit-time',
           strftime(ts AT TIME ZONE 'UTC', '%H:%M:%S'), visit_window,
           'UTC time of day', robots_version, target, file, line
    FROM judged WHERE visit_breach
), res
ORDER BY ts, file, line, kind;
