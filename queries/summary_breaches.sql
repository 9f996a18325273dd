-- summary_breaches: the Crawl-delay and Request-rate breaches per bot, host and identity,
-- from the window functions of measures.sql (window_measures) over the stored requests of
-- the bots and hosts with a limit. The judge measures them while the logs stream and makes
-- this table itself (audit/stream.go) unless the logs had too many bots or requests for it;
-- this is the definition it is held to (audit/measure_sql_test.go).
CREATE OR REPLACE TEMP TABLE summary_breaches AS
SELECT bot_id, host_id, identity_code,
    count(*) FILTER (WHERE crawl_delay_breach)  AS crawl_delay_breaches,
    count(*) FILTER (WHERE request_rate_breach) AS request_rate_breaches,
    count(*) FILTER (WHERE crawl_delay_unsupported) AS crawl_delay_unsupported
FROM window_measures(false)
GROUP BY bot_id, host_id, identity_code;
