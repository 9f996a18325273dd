-- The breaches of Crawl-delay, Request-rate or Visit-time (breaches.csv), and
-- the short gaps of crawlers that ignore Crawl-delay (crawl_delay_unsupported), on
-- ids, for Store.Named (audit/store), which names the id columns one join at a time into the table
-- read by breaches.sql.
SELECT r.ts, r.host_id, r.client_ip_id, r.client_ip, r.bot_id, r.identity,
    r.target_id, r.target, r.robots_version_id, r.visit_window_id, r.file_id, r.line,
    r.crawl_delay, r.rate_requests, r.rate_seconds, r.visit_breach,
    m.gap_us, m.rate_count, m.crawl_delay_breach, m.request_rate_breach, m.crawl_delay_unsupported
FROM requests r
JOIN measures m ON m.rid = r.rid
WHERE m.crawl_delay_breach OR m.request_rate_breach OR r.visit_breach OR m.crawl_delay_unsupported;
