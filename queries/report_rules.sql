-- The robots.txt rules that decided disallowed requests (report.html's rules table), most
-- disallowed requests first, each with the bots (and identities) it disallowed most, from
-- report_base (report_base.sql):
--   $1  how many rules   $2  how many bots per rule
-- total counts every such rule, bots every bot row a rule disallowed.
WITH v AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace
    FROM dict
),
ids AS (
    SELECT b.host_id, b.robots_version_id, b.rule_line, b.rule_id, b.bot_id, b.identity_code,
        coalesce(sum(b.requests) FILTER (WHERE b.verdict_id = v.disallowed), 0) AS disallowed,
        coalesce(sum(b.requests) FILTER (WHERE b.verdict_id = v.in_grace), 0)   AS in_grace
    FROM report_base b, v
    WHERE b.verdict_id IN (v.disallowed, v.in_grace)
    GROUP BY ALL
),
per AS (
    SELECT coalesce(host.value, '') AS host, ver.value AS robots_version, ids.rule_line, rule.value AS rule,
        bot.value AS bot, ['unverified', 'verified', 'spoofed'][ids.identity_code + 1] AS identity,
        ids.disallowed, ids.in_grace
    FROM ids
    JOIN dict bot ON bot.id = ids.bot_id
    LEFT JOIN dict host ON host.id = ids.host_id
    LEFT JOIN dict ver ON ver.id = ids.robots_version_id
    LEFT JOIN dict rule ON rule.id = ids.rule_id
),
totals AS (
    SELECT host, robots_version, rule_line, rule,
        sum(disallowed) AS disallowed, sum(in_grace) AS in_grace, count(*) AS bots
    FROM per
    GROUP BY host, robots_version, rule_line, rule
),
rules AS (
    SELECT *,
        row_number() OVER (ORDER BY disallowed DESC, in_grace DESC, host, robots_version, rule_line, rule) AS rank,
        count(*) OVER () AS total
    FROM totals
),
ranked AS (
    SELECT *, row_number() OVER (PARTITION BY host, robots_version, rule_line, rule
                                 ORDER BY disallowed DESC, in_grace DESC, bot, identity) AS brank
    FROM per
)
SELECT r.rank, r.host, r.robots_version, r.rule_line, r.rule, r.disallowed, r.in_grace, r.bots, r.total,
       p.bot, p.identity, p.disallowed + p.in_grace AS n
FROM rules r
JOIN ranked p ON p.host = r.host AND p.robots_version IS NOT DISTINCT FROM r.robots_version
             AND p.rule_line IS NOT DISTINCT FROM r.rule_line AND p.rule IS NOT DISTINCT FROM r.rule
WHERE r.rank <= $1 AND p.brank <= $2
ORDER BY r.rank, p.brank;
