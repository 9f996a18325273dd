-- The counts of summary.sql that come from the requests: one row per bot, host and
-- identity in the temporary tables summary_per and summary_ips, which
-- summary_counted.sql joins with the window breaches and the conduct. The requests a
-- spoofer made under a crawler's name are never counted as the crawler's. Counts on the
-- ids of requests. request_counts is every request (request_counts.sql) or the judge's
-- counts of them (request_counts_lean.sql): the counts are sums of n. Apart from
-- summary_counted.sql, these need nothing the judge measures after the read: they run
-- while it sorts the windows and the conduct.
--
-- One table per step, not one query: each step's hash tables and sorts then have
-- DuckDB's whole memory limit to themselves and spill alone. As one query over a hostile
-- log's millions of invented bot names (the memory benchmark of docs/performance.md),
-- the three aggregates and their joins outgrow the limit; one step at a time they fit.
CREATE OR REPLACE TEMP TABLE summary_per AS
WITH verdicts AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace,
        max(id) FILTER (WHERE value = 'unaudited')           AS unaudited,
        max(id) FILTER (WHERE value = 'disallowed_unreachable') AS unreachable,
        max(id) FILTER (WHERE value = 'allowed_unavailable')    AS unavailable,
        max(id) FILTER (WHERE value = 'user_triggered')         AS user_triggered
    FROM dict
)
SELECT
    r.bot_id,
    r.host_id,
    r.identity_code,
    sum(r.n)::BIGINT                                                          AS requests,
    coalesce(sum(r.n) FILTER (WHERE r.robots_fetch), 0)::BIGINT               AS robots_fetches,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.disallowed), 0)::BIGINT  AS disallowed,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.in_grace), 0)::BIGINT    AS disallowed_in_grace,
    coalesce(sum(r.n) FILTER (WHERE r.visit_breach), 0)::BIGINT               AS visit_time_breaches,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.unaudited), 0)::BIGINT   AS unaudited,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.unreachable), 0)::BIGINT AS disallowed_unreachable,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.unavailable), 0)::BIGINT AS allowed_unavailable,
    coalesce(sum(r.n) FILTER (WHERE r.verdict_id = v.user_triggered), 0)::BIGINT AS user_triggered,
    min(r.first_ts)                                                           AS first_seen,
    max(r.last_ts)                                                            AS last_seen,
    coalesce(sum(r.n) FILTER (WHERE r.signed), 0)::BIGINT                     AS signed,
    coalesce(sum(r.bytes), 0)::BIGINT AS bytes,
    coalesce(sum(r.s2xx), 0)::BIGINT  AS s2xx,
    coalesce(sum(r.s3xx), 0)::BIGINT  AS s3xx,
    coalesce(sum(r.s304), 0)::BIGINT  AS s304,
    coalesce(sum(r.s4xx), 0)::BIGINT  AS s4xx,
    coalesce(sum(r.s5xx), 0)::BIGINT  AS s5xx,
    coalesce(sum(r.s5xx + r.s429), 0)::BIGINT AS error_answers,
    coalesce(sum(r.other_methods), 0)::BIGINT AS other_methods,
    coalesce(sum(r.pref_exposed), 0)::BIGINT                                  AS pref_exposed
FROM request_counts r, verdicts v
GROUP BY r.bot_id, r.host_id, r.identity_code;

-- Distinct addresses, as a DISTINCT then a count: a hash aggregate that
-- spills to disk under the memory limit, where count(DISTINCT) over
-- millions of groups does not. A value is an id or a string, never both
-- (RequestsSchema). The view's joins (claims names the identity) are a step
-- of their own: with 3.1 M distinct IPv6 addresses, the join's hash table and
-- the DISTINCT's in one query ran out of 256 MB, where each alone spills.
CREATE OR REPLACE TEMP TABLE summary_ip_rows AS
SELECT bot_id, host_id, identity_code, client_ip_id, client_ip FROM request_counts
WHERE client_ip_id IS NOT NULL OR client_ip IS NOT NULL;

CREATE OR REPLACE TEMP TABLE summary_ips AS
SELECT bot_id, host_id, identity_code, count(*) AS ips
FROM (SELECT DISTINCT bot_id, host_id, identity_code, client_ip_id, client_ip FROM summary_ip_rows)
GROUP BY bot_id, host_id, identity_code;

DROP TABLE summary_ip_rows;
