-- Every client address of a bot request, with whether it qualifies for the block list
-- (contract §8) and why: its counts per kind, the crawlers it claimed to be with what
-- verification found, its first and last request. The addresses that do not qualify
-- matter too: an aggregated block list never covers one of them.
--   $1  --block-min: requests of a kind that make an address qualify
--   $2  disallowed   $3 spoofed   $4 in-grace   $5 crawl-delay   $6 request-rate
--   $7  visit-time   $8 unreachable (true: the kind is in --block-on)
--   $9  --block-verified: an address verified as its crawler's operator's may qualify
-- An address verified for any of its requests never qualifies without $9: blocking it
-- would block the real crawler (a search engine de-indexing the site). A user-triggered
-- fetcher's requests (verdict user_triggered) are in no kind: robots.txt does not apply to them.
-- The allow list and the addresses never blocked (loopback, multicast, ...) are applied by the writer
-- (report/firewall), which parses every address.
WITH per AS (
    SELECT
        client_ip,
        count(*) FILTER (WHERE verdict = 'disallowed')          AS disallowed,
        count(*) FILTER (WHERE identity = 'spoofed')            AS spoofed,
        count(*) FILTER (WHERE verdict = 'disallowed_in_grace') AS in_grace,
        count(*) FILTER (WHERE crawl_delay_breach)              AS crawl_delay,
        count(*) FILTER (WHERE request_rate_breach)             AS request_rate,
        count(*) FILTER (WHERE visit_breach)                    AS visit_time,
        count(*) FILTER (WHERE verdict = 'disallowed_unreachable') AS unreachable,
        bool_or(identity = 'verified')                          AS verified,
        list(DISTINCT {'bot': bot, 'identity': identity} ORDER BY {'bot': bot, 'identity': identity}) AS claims,
        min(ts)                                                 AS first_seen,
        max(ts)                                                 AS last_seen
    FROM judged
    WHERE client_ip IS NOT NULL AND client_ip <> ''
    GROUP BY client_ip
)
SELECT client_ip, disallowed, spoofed, in_grace, crawl_delay, request_rate, visit_time,
       verified, claims, first_seen, last_seen,
       (NOT verified OR $9)
       AND (   ($2 AND disallowed   >= $1)
            OR ($3 AND spoofed      >= $1)
            OR ($4 AND in_grace     >= $1)
            OR ($5 AND crawl_delay  >= $1)
            OR ($6 AND request_rate >= $1)
            OR ($7 AND visit_time   >= $1)
            OR ($8 AND unreachable  >= $1)) AS qualifies,
       unreachable
FROM per
ORDER BY client_ip;
