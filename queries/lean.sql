-- lean_counts: what a lean audit (no --db, --parquet or per-request output) stores in
-- place of every bot request: the judge's counts per bot, host, claim, client address,
-- verdict and the two flags the summary counts, with the first and last request of each.
-- A key may come in several rows (the judge hands its counts over in bounded batches);
-- request_counts_lean.sql sums them.
CREATE OR REPLACE TEMP TABLE lean_counts (
    bot_id       INTEGER,
    host_id      INTEGER,
    claim_id     INTEGER,
    client_ip_id INTEGER,      -- the address's dict id, or NULL and ...
    client_ip    VARCHAR,      -- ... the address itself when not in dict (NULL: none logged)
    verdict_id   INTEGER,      -- the verdict robots.txt's version gave (decisions.verdict_id)
    robots_fetch BOOLEAN,
    visit_breach BOOLEAN,
    n            BIGINT,       -- how many requests
    first_ts     TIMESTAMPTZ,
    last_ts      TIMESTAMPTZ,
    pref_exposed BIGINT        -- how many of the n were pref_exposed (requests_store)
);

-- availability_moves: the verdicts robots.txt's availability changed, per bot, host, claim
-- and verdict: n -1 under the version's verdict, +1 under disallowed_unreachable or
-- allowed_unavailable. The judge fills it when some /robots.txt request failed.
CREATE OR REPLACE TEMP TABLE availability_moves (
    bot_id     INTEGER,
    host_id    INTEGER,
    claim_id   INTEGER,
    verdict_id INTEGER,
    n          BIGINT
);
