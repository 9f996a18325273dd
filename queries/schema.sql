-- One row per request of a bot (contract §5), with the verdict the Go matcher
-- reached against the robots.txt version in effect at its timestamp.
-- Human traffic is not stored row by row; it is counted in "traffic".
CREATE TABLE IF NOT EXISTS requests (
    ts             TIMESTAMPTZ NOT NULL, -- request time, UTC, µs
    host           VARCHAR,              -- host the request was judged for ('' when unknown)
    client_ip      VARCHAR,
    method         VARCHAR,
    target         VARCHAR,              -- path and query exactly as logged
    status         INTEGER,
    bytes          BIGINT,
    user_agent     VARCHAR,
    bot            VARCHAR NOT NULL,     -- the crawler's product name (Googlebot, bingbot, curl, ...)
    file           VARCHAR NOT NULL,     -- evidence: log file ...
    line           BIGINT NOT NULL,      -- ... and its 1-based line
    robots_version VARCHAR,              -- the version in effect (file or commit name); NULL when unaudited
    robots_group   VARCHAR,              -- the group that applied ('googlebot', '*'); NULL when none
    verdict        VARCHAR NOT NULL,     -- allowed | disallowed | disallowed_in_grace | unaudited
    rule           VARCHAR,              -- the deciding rule, 'Disallow: /private/'
    rule_line      INTEGER,              -- its line in robots.txt
    crawl_delay    DOUBLE,               -- Crawl-delay in force, seconds
    rate_requests  INTEGER,              -- Request-rate in force: n requests ...
    rate_seconds   INTEGER,              -- ... per this many seconds
    visit_window   VARCHAR,              -- Visit-time in force, 'HHMM-HHMM' UTC
    visit_breach   BOOLEAN NOT NULL,     -- outside the Visit-time window
    robots_fetch   BOOLEAN NOT NULL      -- a request for /robots.txt
);

-- What the audit knows of each bot name.
CREATE TABLE IF NOT EXISTS bots (
    bot      VARCHAR PRIMARY KEY,
    operator VARCHAR,
    purpose  VARCHAR
);

-- Request counts per host, bots and humans alike.
CREATE TABLE IF NOT EXISTS traffic (
    host   VARCHAR,
    humans BIGINT,
    bots   BIGINT
);
