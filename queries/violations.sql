-- One row per disallowed request (violations.csv), in time order: the rows
-- of violations_rows.sql with their names (the columns of the view judged).
SELECT
    ts, coalesce(host, '') AS host, coalesce(client_ip_name, client_ip) AS client_ip, bot,
    identity, method, coalesce(target_name, target) AS target, status,
    rule, rule_line, robots_version, robots_group,
    verdict = 'disallowed_in_grace' AS in_grace,
    file, line
FROM violation_rows
ORDER BY ts, file, line;
