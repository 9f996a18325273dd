-- window_measures(everything): what the window functions measure for the
-- requests of the bots and hosts a Crawl-delay or Request-rate applies to, or, when
-- everything is true, for every audited request. One row per request:
--   rid                  the request (requests.rid)
--   bot_id, host_id      its bot and host, and identity_code: who really made it (claims: 0 unverified,
--                        1 verified, 2 spoofed)
--   gap_us               µs since the previous request of the same bot and identity to the
--                        same host (a spoofer's requests never shorten the real crawler's gaps)
--                        (requests ordered by time, then file and line)
--   rate_count           the bot's requests to the host in (ts - rate_seconds, ts], itself
--                        included; NULL where no Request-rate is in force
--   crawl_delay_breach   gap_us < Crawl-delay in force, for a crawler that supports it
--   crawl_delay_unsupported  gap_us < Crawl-delay in force, for a crawler whose operator says it
--                        ignores Crawl-delay (policies.crawl_delay_ignored), unless the request
--                        is spoofed: an impostor is held to the rule its claimed crawler ignores
--   request_rate_breach  rate_count > n of the Request-rate n/t in force
--
-- Only the bots and hosts with a limit can breach one, and the windows sort what they
-- measure: the summary asks for those alone (everything = false), the stored measures
-- (judged.sql) for all. The sliding-window count runs only over the bots and hosts that
-- some Request-rate applies to; other rows say NULL without being counted.
CREATE OR REPLACE MACRO window_measures(everything) AS TABLE
WITH req AS (
    SELECT rid, ts, bot_id, host_id, identity_code, file_id, line, crawl_delay, rate_requests, rate_seconds,
        crawl_delay_ignored AND identity_code <> 2 AS delay_unsupported
    FROM requests
),
limited AS (
    SELECT bot_id, host_id, identity_code, bool_or(rate_seconds IS NOT NULL) AS rated
    FROM req
    WHERE crawl_delay IS NOT NULL OR rate_seconds IS NOT NULL
    GROUP BY bot_id, host_id, identity_code
),
parts AS (
    SELECT req.*, coalesce(l.rated, false) AS rated
    FROM req LEFT JOIN limited l USING (bot_id, host_id, identity_code)
    WHERE everything OR l.bot_id IS NOT NULL
),
windowed AS (
    SELECT *,
        epoch_us(ts) - lag(epoch_us(ts)) OVER (PARTITION BY bot_id, host_id, identity_code ORDER BY ts, file_id, line) AS gap_us,
        NULL::BIGINT AS rate_count
    FROM parts WHERE NOT rated
    UNION ALL BY NAME
    SELECT *,
        epoch_us(ts) - lag(epoch_us(ts)) OVER (PARTITION BY bot_id, host_id, identity_code ORDER BY ts, file_id, line) AS gap_us,
        CASE WHEN rate_seconds IS NULL THEN NULL ELSE
            count(*) OVER (
                PARTITION BY bot_id, host_id, identity_code ORDER BY epoch_us(ts)
                RANGE BETWEEN (coalesce(rate_seconds, 1)::BIGINT * 1000000 - 1) PRECEDING AND CURRENT ROW)
        END AS rate_count
    FROM parts WHERE rated
)
SELECT rid, bot_id, host_id, identity_code, gap_us, rate_count,
    coalesce(crawl_delay IS NOT NULL AND gap_us IS NOT NULL AND gap_us < crawl_delay * 1000000, false)
        AND NOT delay_unsupported                                                                  AS crawl_delay_breach,
    coalesce(rate_requests IS NOT NULL AND rate_count > rate_requests, false)                      AS request_rate_breach,
    coalesce(crawl_delay IS NOT NULL AND gap_us IS NOT NULL AND gap_us < crawl_delay * 1000000, false)
        AND delay_unsupported                                                                      AS crawl_delay_unsupported
FROM windowed;
