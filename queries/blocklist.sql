-- Every client address of a bot request, with whether it qualifies for the block list
-- and why: its counts per kind, the crawlers it claimed to be with what
-- verification found, its first and last request. The addresses that do not qualify
-- matter too: an aggregated block list never covers one of them.
--   $1  --block-min: requests of a kind that make an address qualify
--   $2  disallowed   $3 spoofed   $4 in-grace   $5 crawl-delay   $6 request-rate
--   $7  visit-time   $8 unreachable (true: the kind is in --block-on)
--   $9  --block-verified: an address verified as its crawler's operator's may qualify
-- An address verified for any of its requests never qualifies without $9: blocking it
-- would block the real crawler (a search engine de-indexing the site). Such an address
-- that would qualify otherwise is held (held back): the reports name its crawler. A user-triggered
-- fetcher's requests (verdict user_triggered) are in no kind: robots.txt does not apply to them.
-- The allow list and the addresses never blocked (loopback, multicast, ...) are applied by the writer
-- (report/firewall), which parses every address.
--
-- The requests come from the view block_requests (blocklist_source.sql over every request
-- and its measures; blocklist_source_lean.sql over a lean audit's counts), whose rows
-- count n requests each.
-- Two steps, on ids: this one counts per address into the temporary table
-- block_addresses; blocklist_rows.sql names them and lists their claims. (Over the view
-- judged, with its twelve joins of dict, one address per row of 200,000 and the claims as
-- a list aggregate, the query outgrows the memory limit with a hostile log's hundreds
-- of thousands of bot names; on ids it takes a fraction of that.) An address is an id of dict or an inline string, never
-- both (RequestsSchema), so grouping on the pair groups on the address.
CREATE OR REPLACE TEMP TABLE block_addresses AS
WITH v AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')             AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace')    AS in_grace,
        max(id) FILTER (WHERE value = 'disallowed_unreachable') AS unreachable
    FROM dict
),
per AS (
    SELECT
        r.client_ip_id,
        r.client_ip,
        coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.disallowed), 0)::BIGINT  AS disallowed,
        coalesce(sum(r.n) FILTER (WHERE r.identity_code = 2), 0)::BIGINT          AS spoofed,
        coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.in_grace), 0)::BIGINT    AS in_grace,
        coalesce(sum(r.crawl_delay), 0)::BIGINT                                   AS crawl_delay,
        coalesce(sum(r.request_rate), 0)::BIGINT                                  AS request_rate,
        coalesce(sum(r.n) FILTER (WHERE r.visit_breach), 0)::BIGINT               AS visit_time,
        coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.unreachable), 0)::BIGINT AS unreachable,
        coalesce(bool_or(r.identity_code = 1), false)                             AS verified,
        min(r.first_ts)                                                           AS first_seen,
        max(r.last_ts)                                                            AS last_seen
    FROM block_requests r, v
    WHERE r.client_ip_id IS NOT NULL OR r.client_ip IS NOT NULL
    GROUP BY r.client_ip_id, r.client_ip
),
meets AS (
    SELECT
        per.*,
        (   ($2 AND disallowed   >= $1)
         OR ($3 AND spoofed      >= $1)
         OR ($4 AND in_grace     >= $1)
         OR ($5 AND crawl_delay  >= $1)
         OR ($6 AND request_rate >= $1)
         OR ($7 AND visit_time   >= $1)
         OR ($8 AND unreachable  >= $1)) AS meets
    FROM per
)
SELECT
    * EXCLUDE (meets),
    meets AND (NOT verified OR $9) AS qualifies,
    meets AND verified AND NOT $9  AS held
FROM meets;
