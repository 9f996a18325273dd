-- request_counts: the bot requests as summary_counts.sql counts them, one row per request
-- (n = 1) in an audit that stores every request. request_counts_lean.sql makes the same
-- view over the judge's counts; the summary's definition reads only this shape.
CREATE OR REPLACE TEMP VIEW request_counts AS
SELECT bot_id, host_id, identity_code, client_ip_id, client_ip, verdict_id, robots_fetch, visit_breach,
    1::BIGINT AS n, ts AS first_ts, ts AS last_ts,
    coalesce(signature_status = 'valid', false) AS signed,
    -- What the request cost and how it was answered (audit/lean.go trafficCounts): a NULL
    -- bytes counts 0; 3xx holds no 304, which has its own class; 4xx holds 429.
    coalesce(bytes, 0)::BIGINT AS bytes,
    (status BETWEEN 200 AND 299)::BIGINT AS s2xx,
    (status BETWEEN 300 AND 399 AND status <> 304)::BIGINT AS s3xx,
    (status = 304)::BIGINT AS s304,
    (status BETWEEN 400 AND 499)::BIGINT AS s4xx,
    (status BETWEEN 500 AND 599)::BIGINT AS s5xx,
    (status = 429)::BIGINT AS s429,
    (method_id IS NOT NULL AND method_id NOT IN (SELECT id FROM dict WHERE value IN ('GET', 'HEAD')))::BIGINT AS other_methods,
    pref_exposed::BIGINT AS pref_exposed
FROM requests;
