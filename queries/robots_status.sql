-- summary.json's robots_status: the periods availability.sql found, with
-- the requests each one saw (requests) and whose verdict it changed (affected), named,
-- by host, operator, start and line. to_ts NULL: the period lasts past the logs' end.
WITH counts AS (
    SELECT period_id, count(*) AS requests, count(verdict_id) AS affected
    FROM during GROUP BY period_id
)
SELECT coalesce(host.value, ''), p.operator, p.kind, p.from_ts, p.to_ts, p.status,
    coalesce(bot.value, ''), coalesce(file.value, ''), p.line,
    coalesce(c.requests, 0), coalesce(c.affected, 0)
FROM robots_status p
LEFT JOIN counts c USING (period_id)
LEFT JOIN dict host ON host.id = p.host_id
LEFT JOIN dict bot  ON bot.id  = p.bot_id
LEFT JOIN dict file ON file.id = p.file_id
ORDER BY 1, p.operator, p.from_ts, p.line
