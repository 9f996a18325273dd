-- Requests judged by each robots.txt version, and how many of them it disallowed, from
-- report_base (report_base.sql).
SELECT ver.value AS robots_version, sum(b.requests) AS requests,
    coalesce(sum(b.requests) FILTER (WHERE verdict.value = 'disallowed'), 0) AS disallowed
FROM report_base b
JOIN dict ver ON ver.id = b.robots_version_id
LEFT JOIN dict verdict ON verdict.id = b.verdict_id
GROUP BY ver.value;
