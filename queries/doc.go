// Package queries holds the DuckDB SQL of crawlaudit, embedded in the
// binary. SQL is where aggregation lives: Go parses and matches, and leaves
// one row per audited bot request in the table "requests" (see schema.sql);
// the files here turn those rows into the reports.
//
// Files, in the order the audit runs them:
//
//	schema.sql      tables: requests_store (seen through the view requests), dict, bots, traffic
//	measures.sql    the table macro window_measures: per request, the gap to the bot's previous
//	                request, the count in its Request-rate window and the breaches they make
//	bot_ops.sql     each bot's operator, as robots.txt availability is kept by
//	availability.sql robots.txt as crawlers met it (RFC 9309 §2.3.1): robots_status, the unreachable and
//	                unavailable periods from the logs' /robots.txt responses, and availability,
//	                the verdicts they change (the view requests reads it)
//	robots_status.sql summary.json's robots_status: the periods with their counts, named
//	lean.sql        an audit that lists no request (no --db, --parquet, --out, --report,
//	                --json) stores the judge's counts in lean_counts instead of every request
//	request_counts.sql, request_counts_lean.sql the view request_counts, the requests as the
//	                summary counts them: one row per request, or the judge's counts (same shape)
//	summary_breaches.sql, summary_conduct.sql the breaches of the windows (window_measures) and
//	                the conduct (conduct.sql's conduct_measures) per bot, host and identity,
//	                for what the judge did not measure while the logs streamed
//	summary_counts.sql the counts per bot, host and identity that come from request_counts
//	                (temporary tables summary_per and summary_ips), step by step
//	summary_counted.sql summary.json's bot rows as numbers in the temporary table
//	                summary_counted: summary_counts.sql's with summary_breaches and
//	                summary_conduct
//	summary.sql     the summary's bot rows from summary_counted, named, worst first; past a
//	                limit the rest folded per host and identity
//	changes_agents.sql, changes.sql the bots active around each robots.txt version change,
//	                and how each reacted to it; the audit gathers the same while the
//	                logs stream, and runs these only when it could not
//	judged.sql      the table "measures" (window_measures, stored) and the view "judged": requests
//	                with names and measures; made for the reports below and for --db
//	violations_rows.sql, violations.sql the disallowed requests on ids, then (over the table
//	                audit/store's Named makes of them with their names) one row per disallowed
//	                request (violations.csv)
//	breaches_rows.sql, breaches.sql the same for the crawl-delay, request-rate and visit-time
//	                breaches (breaches.csv)
//	blocklist.sql   per client address of a bot request, its counts and whether it qualifies
//	                for the block list, in the temporary table block_addresses
//	blocklist_names.sql the addresses named, and the claims of the qualifying ones
//	blocklist_rows.sql the rows of the block list: a qualifying address's claims on rows of their own
//	blocklist_held.sql the rule each verified crawler held back from the list broke most
//	report_*.sql    the findings of report.html and report.md: report_base (one pass
//	                over the requests on ids: per day, version and rule), report_daily or
//	                report_hourly (the view report_slots: the counts per day or hour) and
//	                report_timeline, report_versions, report_rules, report_breaches,
//	                report_paths, report_agents, report_preferences
//	whatif_pairs.sql, whatif.sql with --what-if FILE: the distinct User-Agent and target pairs
//	                the proposed robots.txt decides in Go, then per bot and host what it would change
package queries
