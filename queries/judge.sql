-- judged: every audited request with what the window functions measure.
--   gap_us          µs since the same bot's previous request to the same host
--   rate_count      the bot's requests to the host in (ts - rate_seconds, ts], itself included
--   crawl_delay_breach, request_rate_breach: contract §6
CREATE OR REPLACE TABLE judged AS
SELECT
    r.*,
    epoch_us(ts) - lag(epoch_us(ts)) OVER w_order AS gap_us,
    CASE WHEN rate_seconds IS NULL THEN NULL ELSE
        count(*) OVER (
            PARTITION BY bot, host ORDER BY epoch_us(ts)
            RANGE BETWEEN (coalesce(rate_seconds, 1)::BIGINT * 1000000 - 1) PRECEDING AND CURRENT ROW)
    END AS rate_count
FROM requests r
WINDOW w_order AS (PARTITION BY bot, host ORDER BY ts, file, line);

ALTER TABLE judged ADD COLUMN crawl_delay_breach BOOLEAN;
UPDATE judged SET crawl_delay_breach =
    coalesce(crawl_delay IS NOT NULL AND gap_us IS NOT NULL AND gap_us < crawl_delay * 1000000, false);
ALTER TABLE judged ADD COLUMN request_rate_breach BOOLEAN;
UPDATE judged SET request_rate_breach =
    coalesce(rate_requests IS NOT NULL AND rate_count > rate_requests, false);
