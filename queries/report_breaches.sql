-- Crawl-delay, request-rate and visit-time breaches per bot row, kind and limit in force
-- (report.html's breaches section), most breaches first, with the measured values:
-- crawl-delay the shortest and the median gap to the previous request (seconds),
-- request-rate the largest and the median count in the window, visit-time the earliest
-- and latest, and the median, UTC time of day of the breaches.
--   $1  how many groups
-- total counts every group. Counted on ids; names are joined to the groups.
WITH j AS (
    SELECT r.bot_id, r.host_id, r.identity_code, r.ts, r.crawl_delay, r.rate_requests, r.rate_seconds,
        r.visit_window_id, r.visit_breach, m.gap_us, m.rate_count, m.crawl_delay_breach, m.request_rate_breach
    FROM requests r
    JOIN measures m ON m.rid = r.rid
    WHERE m.crawl_delay_breach OR m.request_rate_breach OR r.visit_breach
),
b AS (
    SELECT bot_id, host_id, identity_code, 'crawl-delay' AS kind, crawl_delay::VARCHAR AS limit_value,
        'seconds since the previous request' AS unit, count(*) AS n,
        round(min(gap_us) / 1e6, 3)::VARCHAR AS worst, round(median(gap_us) / 1e6, 3)::VARCHAR AS median,
        min(ts) AS first_seen, max(ts) AS last_seen
    FROM j WHERE crawl_delay_breach
    GROUP BY bot_id, host_id, identity_code, crawl_delay
    UNION ALL
    SELECT bot_id, host_id, identity_code, 'request-rate', rate_requests::VARCHAR || '/' || rate_seconds::VARCHAR || 's',
        'requests in the window', count(*),
        max(rate_count)::VARCHAR, quantile_disc(rate_count, 0.5)::VARCHAR,
        min(ts), max(ts)
    FROM j WHERE request_rate_breach
    GROUP BY bot_id, host_id, identity_code, rate_requests, rate_seconds
    UNION ALL
    SELECT bot_id, host_id, identity_code, 'visit-time', coalesce(w.value, ''),
        'UTC time of day', count(*),
        strftime(DATE '2000-01-01' + min(tod), '%H:%M:%S') || ' to ' || strftime(DATE '2000-01-01' + max(tod), '%H:%M:%S'),
        strftime(DATE '2000-01-01' + quantile_disc(tod, 0.5), '%H:%M:%S'),
        min(ts), max(ts)
    FROM (SELECT *, (ts AT TIME ZONE 'UTC')::TIME AS tod FROM j WHERE visit_breach) v
    LEFT JOIN dict w ON w.id = v.visit_window_id
    GROUP BY bot_id, host_id, identity_code, w.value
),
named AS (
    SELECT bot.value AS bot, coalesce(host.value, '') AS host,
        ['unverified', 'verified', 'spoofed'][b.identity_code + 1] AS identity,
        kind, limit_value, unit, n, worst, median, first_seen, last_seen
    FROM b
    JOIN dict bot ON bot.id = b.bot_id
    LEFT JOIN dict host ON host.id = b.host_id
)
SELECT bot, host, identity, kind, limit_value, unit, n, worst, median, first_seen, last_seen,
       count(*) OVER () AS total
FROM named
QUALIFY row_number() OVER (ORDER BY n DESC, bot, host, identity, kind, limit_value) <= $1
ORDER BY n DESC, bot, host, identity, kind, limit_value;
