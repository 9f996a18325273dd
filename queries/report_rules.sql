-- The robots.txt rules that decided disallowed requests (report.html's rules table), most
-- disallowed requests first, each with the bots (and identities) it disallowed most:
--   $1  how many rules   $2  how many bots per rule
-- total counts every such rule, bots every bot row a rule disallowed.
WITH per AS (
    SELECT host, robots_version, rule_line, rule, bot, identity,
        count(*) FILTER (WHERE verdict = 'disallowed')          AS disallowed,
        count(*) FILTER (WHERE verdict = 'disallowed_in_grace') AS in_grace
    FROM judged
    WHERE verdict IN ('disallowed', 'disallowed_in_grace')
    GROUP BY ALL
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
