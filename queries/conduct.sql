-- conduct_measures(): the measures of a bot's conduct that need its history, per bot,
-- host and identity, over the stored requests: the definition that audit/measure's Conduct
-- computes while the logs stream (audit/conduct_stream.go), and the fallback when the
-- judge kept too many requests for it or did not stream (live reverse DNS).
--   no_backoff            requests sent after an earlier 5xx or 429 answer of the same bot,
--                         host and identity, no later than the wait its Retry-After asked for
--                         (retry_after_s), or 1 s without one; requests at the same instant as
--                         the answer are not after it
--   repeat_fetches        fetches of a target after the first (at the same instant, a 304 after
--                         another answer)
--   not_modified          those of them answered 304
--   refetch_median_hours  the median time between consecutive fetches of the same target
--                         (the mean of the two middle ones), hours to three decimals; NULL
--                         when no target was fetched twice
--   contact               one of its User-Agents matches getvariable('contact_pattern')
--                         (measure.ContactPattern: a URL or an e-mail address)
CREATE OR REPLACE MACRO conduct_measures() AS TABLE
WITH req AS (
    SELECT bot_id, host_id, identity_code, epoch_us(ts) AS us, coalesce(status, -1) AS status,
        (status = 429 OR status BETWEEN 500 AND 599) AS error_answer,
        coalesce(retry_after_s::BIGINT * 1000000, 1000000) AS wait_us,
        coalesce(target_id::VARCHAR, '~' || target, '') AS url
    FROM requests
),
-- The requests of each instant, with the latest deadline its error answers set: the
-- deadline a request must wait for is the latest one set at an earlier instant. Over
-- distinct instants that is a ROWS frame, which DuckDB keeps as a running maximum, where
-- it computed the same RANGE frame over the requests (RANGE ... 1 PRECEDING) far more
-- slowly on large months (docs/performance.md, "The conduct SQL on a large month").
instants AS (
    SELECT bot_id, host_id, identity_code, us, count(*) AS n,
        max(CASE WHEN error_answer THEN us + wait_us END) AS until
    FROM req GROUP BY ALL
),
backoff AS (
    SELECT bot_id, host_id, identity_code, us, n,
        max(until) OVER (
            PARTITION BY bot_id, host_id, identity_code ORDER BY us
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS deadline
    FROM instants
),
backoffs AS (
    SELECT bot_id, host_id, identity_code, coalesce(sum(n) FILTER (WHERE us <= deadline), 0) AS no_backoff
    FROM backoff GROUP BY ALL
),
fetches AS (
    SELECT bot_id, host_id, identity_code, status,
        us - lag(us) OVER (PARTITION BY bot_id, host_id, identity_code, url ORDER BY us, status = 304) AS gap_us
    FROM req
),
refetches AS (
    SELECT bot_id, host_id, identity_code,
        count(gap_us) AS repeat_fetches,
        count(gap_us) FILTER (WHERE status = 304) AS not_modified,
        round(median(gap_us) / 3.6e9, 3) AS refetch_median_hours
    FROM fetches GROUP BY ALL
),
agents AS (
    SELECT bot_id, host_id, identity_code,
        bool_or(regexp_matches(coalesce(d.value, u.user_agent, ''), getvariable('contact_pattern'))) AS contact
    FROM (SELECT DISTINCT bot_id, host_id, identity_code, user_agent_id, user_agent FROM requests) u
    LEFT JOIN dict d ON d.id = u.user_agent_id
    GROUP BY ALL
)
SELECT b.bot_id, b.host_id, b.identity_code, b.no_backoff::BIGINT AS no_backoff,
    r.repeat_fetches::BIGINT AS repeat_fetches, r.not_modified::BIGINT AS not_modified,
    r.refetch_median_hours::DOUBLE AS refetch_median_hours, a.contact
FROM backoffs b JOIN refetches r USING (bot_id, host_id, identity_code)
JOIN agents a USING (bot_id, host_id, identity_code);
