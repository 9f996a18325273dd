-- requests_store: one row per request of a bot (contract §5), with the verdict the Go matcher
-- reached against the robots.txt version in effect at its timestamp.
-- Human traffic is not stored row by row; it is counted in "traffic".
-- Repeated strings are ids into "dict"; the view "judged" (judged.sql) shows
-- the names. Query the view; the ids are an encoding, not an interface.
CREATE TABLE IF NOT EXISTS requests_store (r STRUCT(
    ts                TIMESTAMPTZ,  -- request time, UTC, µs
    host_id           INTEGER,      -- host the request was judged for ('' when unknown)
    client_ip_id      INTEGER,      -- client address, canonical form
    method_id         INTEGER,
    target_id         INTEGER,      -- path and query exactly as logged
    status            INTEGER,
    bytes             BIGINT,
    user_agent_id     INTEGER,
    bot_id            INTEGER,      -- the crawler's product name (Googlebot, bingbot, curl, ...)
    file_id           INTEGER,      -- evidence: log file ...
    line              BIGINT,       -- ... and its 1-based line
    robots_version_id INTEGER,      -- the version in effect (file or commit name); NULL when unaudited
    robots_group_id   INTEGER,      -- the group that applied ('googlebot', '*'); NULL when none
    verdict_id        INTEGER,      -- allowed | disallowed | disallowed_in_grace | unaudited
    rule_id           INTEGER,      -- the deciding rule, 'Disallow: /private/'
    rule_line         INTEGER,      -- its line in robots.txt
    crawl_delay       DOUBLE,       -- Crawl-delay in force, seconds
    rate_requests     INTEGER,      -- Request-rate in force: n requests ...
    rate_seconds      INTEGER,      -- ... per this many seconds
    visit_window_id   INTEGER,      -- Visit-time in force, 'HHMM-HHMM' UTC
    visit_breach      BOOLEAN,      -- outside the Visit-time window
    robots_fetch      BOOLEAN       -- a request for /robots.txt
));

-- requests: the rows of requests_store as columns; rid is the row's id.
-- (The rows are stored as one STRUCT column because DuckDB keeps distinct-
-- value statistics for every top-level column it appends to, which cost
-- more than the copy itself: a STRUCT column has none, so a batch goes in
-- 2.5 times as fast.)
CREATE VIEW IF NOT EXISTS requests AS SELECT rowid AS rid, unnest(r) FROM requests_store;

-- The strings behind the *_id columns of requests.
CREATE TABLE IF NOT EXISTS dict (
    id    INTEGER,
    value VARCHAR
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
