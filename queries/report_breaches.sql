-- Crawl-delay, request-rate and visit-time breaches per bot row, kind and limit in force
-- (report.html's breaches section), most breaches first, with the measured values:
-- crawl-delay the shortest and the median gap to the previous request (seconds),
-- request-rate the largest and the median count in the window, visit-time the earliest
-- and latest, and the median, UTC time of day of the breaches.
--   $1  how many groups
-- total counts every group.
WITH b AS (
    SELECT bot, host, identity, 'crawl-delay' AS kind, crawl_delay::VARCHAR AS limit_value,
        'seconds since the previous request' AS unit, count(*) AS n,
        round(min(gap_us) / 1e6, 3)::VARCHAR AS worst, round(median(gap_us) / 1e6, 3)::VARCHAR AS median,
        min(ts) AS first_seen, max(ts) AS last_seen
    FROM judged WHERE crawl_delay_breach
    GROUP BY bot, host, identity, crawl_delay
    UNION ALL
    SELECT bot, host, identity, 'request-rate', rate_requests::VARCHAR || '/' || rate_seconds::VARCHAR || 's',
        'requests in the window', count(*),
        max(rate_count)::VARCHAR, quantile_disc(rate_count, 0.5)::VARCHAR,
        min(ts), max(ts)
    FROM judged WHERE request_rate_breach
    GROUP BY bot, host, identity, rate_requests, rate_seconds
    UNION ALL
    SELECT bot, host, identity, 'visit-time', coalesce(visit_window, ''),
        'UTC time of day', count(*),
        strftime(DATE '2000-01-01' + min(tod), '%H:%M:%S') || ' to ' || strftime(DATE '2000-01-01' + max(tod), '%H:%M:%S'),
        strftime(DATE '2000-01-01' + quantile_disc(tod, 0.5), '%H:%M:%S'),
        min(ts), max(ts)
    FROM (SELECT *, (ts AT TIME ZONE 'UTC')::TIME AS tod FROM judged WHERE visit_breach)
    GROUP BY bot, host, identity, visit_window
)
SELECT bot, host, identity, kind, limit_value, unit, n, worst, median, first_seen, last_seen,
       count(*) OVER () AS total
FROM b
QUALIFY row_number() OVER (ORDER BY n DESC, bot, host, identity, kind, limit_value) <= $1
ORDER BY n DESC, bot, host, identity, kind, limit_value;
