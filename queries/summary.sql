-- The bot rows of the summary from summary_counted (summary_counted.sql), worst
-- offenders first, with the names joined: the first getvariable('summary_max_bots') rows,
-- then the rest folded into one row per host and identity (bot NULL; folded: how many
-- rows it holds, 0 for the others). Logs with millions of invented bot names would
-- otherwise hand millions of rows to the program, which DuckDB materializes whole
-- before the first is read, outside its memory limit
-- (docs/performance.md); the audit's database keeps every
-- row.
WITH named AS (
    SELECT
        c.bot_id, c.host_id, c.identity_code,
        bot.value                  AS bot,
        coalesce(host.value, '')   AS host,
        ['unverified', 'verified', 'spoofed'][c.identity_code + 1] AS identity,
        -- a spoofed row's requests were not made by the operator: name none
        CASE WHEN c.identity_code = 2 THEN NULL ELSE b.operator END AS operator,
        b.purpose,
        requests, robots_fetches, disallowed, disallowed_in_grace,
        crawl_delay_breaches, request_rate_breaches, visit_time_breaches,
        unaudited, ips, first_seen, last_seen,
        c.disallowed_unreachable, c.allowed_unavailable, c.user_triggered, c.crawl_delay_unsupported,
        c.signed,
        c.bytes, c.s2xx, c.s3xx, c.s304, c.s4xx, c.s5xx, c.error_answers, c.other_methods,
        c.no_backoff, c.repeat_fetches, c.not_modified, c.refetch_median_hours, c.contact,
        c.pref_exposed
    FROM summary_counted c
    JOIN dict bot ON bot.id = c.bot_id
    LEFT JOIN dict host ON host.id = c.host_id
    LEFT JOIN bots b ON b.bot_id = c.bot_id
),
top AS (
    SELECT *, row_number() OVER (
        ORDER BY disallowed + disallowed_unreachable DESC, disallowed_in_grace DESC,
                 crawl_delay_breaches + request_rate_breaches + visit_time_breaches DESC,
                 requests DESC, bot, host, identity_code) AS pos
    FROM (SELECT * FROM named
          ORDER BY disallowed + disallowed_unreachable DESC, disallowed_in_grace DESC,
                   crawl_delay_breaches + request_rate_breaches + visit_time_breaches DESC,
                   requests DESC, bot, host, identity_code
          LIMIT getvariable('summary_max_bots'))
)
SELECT bot, host, identity, operator, purpose,
    requests, robots_fetches, disallowed, disallowed_in_grace,
    crawl_delay_breaches, request_rate_breaches, visit_time_breaches,
    unaudited, ips, first_seen, last_seen,
    disallowed_unreachable, allowed_unavailable, user_triggered, crawl_delay_unsupported,
    0::BIGINT AS folded, pos,
    signed,
    bytes, s2xx, s3xx, s304, s4xx, s5xx, error_answers, other_methods,
    no_backoff, repeat_fetches, not_modified, refetch_median_hours, contact, pref_exposed
FROM top
UNION ALL
SELECT NULL, host, identity, NULL, NULL,
    sum(requests)::BIGINT, sum(robots_fetches)::BIGINT, sum(disallowed)::BIGINT, sum(disallowed_in_grace)::BIGINT,
    sum(crawl_delay_breaches)::BIGINT, sum(request_rate_breaches)::BIGINT, sum(visit_time_breaches)::BIGINT,
    sum(unaudited)::BIGINT, sum(ips)::BIGINT, min(first_seen), max(last_seen),
    sum(disallowed_unreachable)::BIGINT, sum(allowed_unavailable)::BIGINT, sum(user_triggered)::BIGINT,
    sum(crawl_delay_unsupported)::BIGINT,
    count(*), NULL,
    sum(signed)::BIGINT,
    sum(bytes)::BIGINT, sum(s2xx)::BIGINT, sum(s3xx)::BIGINT, sum(s304)::BIGINT, sum(s4xx)::BIGINT,
    sum(s5xx)::BIGINT, sum(error_answers)::BIGINT, sum(other_methods)::BIGINT,
    sum(no_backoff)::BIGINT, sum(repeat_fetches)::BIGINT, sum(not_modified)::BIGINT, NULL, bool_or(contact), sum(pref_exposed)::BIGINT
FROM named ANTI JOIN top USING (bot_id, host_id, identity_code)
GROUP BY host, identity
ORDER BY pos NULLS LAST;
