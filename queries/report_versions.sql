-- Requests judged by each robots.txt version, and how many of them it disallowed.
SELECT robots_version, count(*) AS requests, count(*) FILTER (WHERE verdict = 'disallowed') AS disallowed
FROM judged
WHERE robots_version IS NOT NULL
GROUP BY robots_version;
