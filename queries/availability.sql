-- robots.txt as the crawlers met it (RFC 9309 §2.3.1): the logs' own
-- /robots.txt responses, per host and operator (an operator's crawlers share one cached
-- robots.txt; a bot without an operator is its own), open periods in which the file was
--   unreachable  after a 5xx or 429, until the next 2xx or 4xx, at most 30 days: complete
--                disallow (§2.3.1.4);
--   unavailable  after a 4xx other than 429, until the next 2xx or 5xx: anything may be
--                crawled (§2.3.1.3).
-- Only the operator's own requests open a period or are judged by one: never a spoofed
-- request (identity_code 2), nor a user-triggered fetcher's, to which robots.txt does not
-- apply. Other responses (1xx, 3xx, no status) change nothing: the log does not show where
-- a redirect led.
--
-- The variable spec_google (SET VARIABLE, by the audit) is true under --spec google, under which an unreachable robots.txt disallows everything
-- for the first 12 hours only, and then the last 2xx copy applies (Google's robots.txt
-- specification, "Handling of errors and HTTP status codes"); the version in effect
-- stands for that copy.
--
-- Fills robots_status (the periods, for summary.json) and availability (the requests whose
-- verdict a period changes; the view requests reads it). The audit's judge computes the same
-- tables while the logs stream (audit/availability_stream.go, with package audit/measure) and
-- runs this file only when it could not.
--
-- The variable robots_failed (SET VARIABLE, by the audit) is false when no bot's request
-- for /robots.txt was answered 4xx or 5xx: then no period opens, and the requests are not
-- scanned for one.
-- bot_ops (queries/bot_ops.sql) must be made first.
CREATE OR REPLACE TABLE robots_status AS
WITH fetches AS (
    SELECT r.host_id, o.op_key, o.operator, r.ts, r.file_id, r.line, r.status, r.bot_id,
        CASE WHEN r.status BETWEEN 200 AND 299 THEN 'ok'
             WHEN r.status BETWEEN 500 AND 599 OR r.status = 429 THEN 'unreachable'
             WHEN r.status BETWEEN 400 AND 499 THEN 'unavailable'
        END AS state
    FROM requests r JOIN bot_ops o ON o.bot_id = r.bot_id
    WHERE r.robots_fetch AND r.identity_code <> 2 AND NOT o.user_triggered
        AND coalesce(getvariable('robots_failed'), true)
),
changes AS (
    SELECT *, lag(state) OVER (PARTITION BY host_id, op_key ORDER BY ts, file_id, line) AS prev
    FROM fetches WHERE state IS NOT NULL
),
starts AS (
    SELECT *, lead(ts) OVER (PARTITION BY host_id, op_key ORDER BY ts, file_id, line) AS next_ts
    FROM changes WHERE prev IS DISTINCT FROM state
)
SELECT row_number() OVER (ORDER BY host_id, operator, ts, file_id, line) AS period_id,
    host_id, operator, op_key, state AS kind, ts AS from_ts,
    -- NULL: it lasts past the logs' end
    CASE WHEN state = 'unreachable' AND (next_ts IS NULL OR next_ts > ts + INTERVAL 720 HOUR)
              AND ts + INTERVAL 720 HOUR <= (SELECT max(ts) FROM requests)
         THEN ts + INTERVAL 720 HOUR
         ELSE next_ts
    END AS to_ts,
    status, bot_id, file_id, line
FROM starts WHERE state <> 'ok';

CREATE OR REPLACE TEMP TABLE during AS
WITH verdicts AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')             AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace')    AS in_grace,
        max(id) FILTER (WHERE value = 'disallowed_unreachable') AS unreachable,
        max(id) FILTER (WHERE value = 'allowed_unavailable')    AS unavailable
    FROM dict
),
-- Only the requests of a host and operator that had a period are looked at.
keys AS (
    SELECT DISTINCT host_id, op_key FROM robots_status
),
req AS (
    SELECT r.rid, r.ts, r.host_id, r.verdict_id, o.op_key
    FROM requests r
    JOIN bot_ops o ON o.bot_id = r.bot_id
    SEMI JOIN keys k ON k.host_id = r.host_id AND k.op_key = o.op_key
    WHERE NOT r.robots_fetch AND r.identity_code <> 2 AND NOT o.user_triggered
        AND coalesce(getvariable('robots_failed'), true)
)
SELECT req.rid, p.period_id,
    CASE
        WHEN p.kind = 'unreachable' AND (NOT getvariable('spec_google') OR req.ts < p.from_ts + INTERVAL 12 HOUR) THEN v.unreachable
        WHEN p.kind = 'unavailable' AND req.verdict_id IN (v.disallowed, v.in_grace) THEN v.unavailable
    END AS verdict_id,
    p.kind = 'unreachable' AS unreachable
FROM req ASOF JOIN robots_status p
    ON p.host_id = req.host_id AND p.op_key = req.op_key AND req.ts >= p.from_ts,
    verdicts v
WHERE p.to_ts IS NULL OR req.ts < p.to_ts;

DELETE FROM availability;
INSERT INTO availability
SELECT rid, verdict_id, unreachable FROM during WHERE verdict_id IS NOT NULL;
