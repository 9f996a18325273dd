// Package measure holds, once, the measures of a key's requests that the
// audit computes in Go: the Crawl-delay and Request-rate windows
// (windows.go), the periods in which robots.txt was unreachable or
// unavailable and the requests they cover (availability.go), the list of
// robots.txt version changes with their windows (versions.go) and a key's
// reaction to a change (changes.go).
//
// Each measure is an aggregate in the manner of VictoriaLogs' stats
// functions: a value updated per request, merged with another, and
// finalized into a result. The judge's stream (package audit) and the Beam
// pipeline (cmd/crawlaudit-beam) both call it; the SQL of package queries
// (measures.sql, availability.sql, changes_agents.sql, changes.sql) stays
// the reference and the bounded-memory fallback, and one differential test
// holds the two to the same answers.
//
// The package knows no DuckDB, Arrow or Beam: times are Unix microseconds,
// files and rules are the caller's numbers.
package measure
