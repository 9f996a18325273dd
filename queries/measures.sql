-- measured: every audited request with what the window functions measure
-- (contract §6), computed when queried, not stored:
--   gap_us               µs since the same bot's previous request to the same host
--                        (requests ordered by time, then file and line)
--   rate_count           the bot's requests to the host in (ts - rate_seconds, ts], itself
--                        included; NULL where no Request-rate is in force
--   crawl_delay_breach   gap_us < Crawl-delay in force
--   request_rate_breach  rate_count > n of the Request-rate n/t in force
--
-- The sliding-window count runs only over the bots and hosts that some
-- Request-rate applies to: most have none, and the count costs as much as
-- the gaps. Those rows say NULL without being counted.
CREATE OR REPLACE VIEW measured AS
WITH rated AS (
    SELECT DISTINCT bot_id, host_id FROM requests WHERE rate_seconds IS NOT NULL
),
windowed AS (
    SELECT *,
        epoch_us(ts) - lag(epoch_us(ts)) OVER (PARTITION BY bot_id, host_id ORDER BY ts, file_id, line) AS gap_us,
        NULL::BIGINT AS rate_count
    FROM requests ANTI JOIN rated USING (bot_id, host_id)
    UNION ALL BY NAME
    SELECT *,
        epoch_us(ts) - lag(epoch_us(ts)) OVER (PARTITION BY bot_id, host_id ORDER BY ts, file_id, line) AS gap_us,
        CASE WHEN rate_seconds IS NULL THEN NULL ELSE
            count(*) OVER (
                PARTITION BY bot_id, host_id ORDER BY epoch_us(ts)
                RANGE BETWEEN (coalesce(rate_seconds, 1)::BIGINT * 1000000 - 1) PRECEDING AND CURRENT ROW)
        END AS rate_count
    FROM requests SEMI JOIN rated USING (bot_id, host_id)
)
SELECT *,
    coalesce(crawl_delay IS NOT NULL AND gap_us IS NOT NULL AND gap_us < crawl_delay * 1000000, false) AS crawl_delay_breach,
    coalesce(rate_requests IS NOT NULL AND rate_count > rate_requests, false)                      AS request_rate_breach
FROM windowed;
