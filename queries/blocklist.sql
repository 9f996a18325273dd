-- Client addresses that qualify for the block list (contract §8), one row each with
-- why: its counts per kind, its bots and their identities.
--   $1  --block-min: requests of a kind that make an address qualify
--   $2  disallowed   $3 spoofed   $4 in-grace   $5 crawl-delay   $6 request-rate
--   $7  visit-time   (true: the kind is in --block-on)
--   $8  --block-verified: an address verified as its crawler's operator's may qualify
-- An address verified for any of its requests never qualifies without $8: blocking it
-- would block the real crawler (a search engine de-indexing the site).
WITH per AS (
    SELECT
        client_ip,
        count(*) FILTER (WHERE verdict = 'disallowed')          AS disallowed,
        count(*) FILTER (WHERE identity = 'spoofed')            AS spoofed,
        count(*) FILTER (WHERE verdict = 'disallowed_in_grace') AS in_grace,
        count(*) FILTER (WHERE crawl_delay_breach)              AS crawl_delay,
        count(*) FILTER (WHERE request_rate_breach)             AS request_rate,
        count(*) FILTER (WHERE visit_breach)                    AS visit_time,
        bool_or(identity = 'verified')                          AS verified,
        string_agg(DISTINCT bot, ',' ORDER BY bot)              AS bots,
        string_agg(DISTINCT identity, ',' ORDER BY identity)    AS identities,
        min(ts)                                                 AS first_seen,
        max(ts)                                                 AS last_seen
    FROM judged
    WHERE client_ip IS NOT NULL AND client_ip <> ''
    GROUP BY client_ip
)
SELECT client_ip, disallowed, spoofed, in_grace, crawl_delay, request_rate, visit_time,
       verified, bots, identities, first_seen, last_seen
FROM per
WHERE (NOT verified OR $8)
  AND (   ($2 AND disallowed   >= $1)
       OR ($3 AND spoofed      >= $1)
       OR ($4 AND in_grace     >= $1)
       OR ($5 AND crawl_delay  >= $1)
       OR ($6 AND request_rate >= $1)
       OR ($7 AND visit_time   >= $1))
ORDER BY client_ip;
