-- One row per disallowed request (violations.csv, contract §2.2), in time order.
SELECT
    ts, host, client_ip, bot, identity, method, target, status,
    rule, rule_line, robots_version, robots_group,
    verdict = 'disallowed_in_grace' AS in_grace,
    file, line
FROM judged
WHERE verdict IN ('disallowed', 'disallowed_in_grace')
ORDER BY ts, file, line;
