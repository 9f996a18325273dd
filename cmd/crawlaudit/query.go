package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/report"
)

// queryOptions are the flags of `crawlaudit query`.
type queryOptions struct {
	db  string
	csv bool
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		var opt queryOptions
		cmd := &cobra.Command{
			Use:   "query --db FILE SQL",
			Short: "Run SQL over an audit kept with audit --db",
			Long: `Runs one SQL statement over a DuckDB database written by 'crawlaudit audit --db FILE'
and prints the result as an aligned table (or CSV with --csv). The audit is opened
read-only: no statement can change or delete it, attach other databases, load
extensions, or read or write other files.

Query the view judged: one row per bot request with its verdict and measures (ts,
host, client_ip, method, target, status, bytes, user_agent, bot, file, line,
robots_version, robots_group, verdict, rule, rule_line, crawl_delay, rate_requests,
rate_seconds, visit_window, visit_breach, robots_fetch, gap_us, rate_count,
crawl_delay_breach, request_rate_breach). Also: bots (bot, operator, purpose),
traffic (host, humans, bots); requests has the same rows with ids into dict
(id, value) instead of names.`,
			Example: `  crawlaudit audit --robots testdata/sample/robots --db /tmp/audit.duckdb testdata/sample/access-2026-10.log.gz
  crawlaudit query --db /tmp/audit.duckdb "SELECT bot, count(*) FROM judged WHERE verdict = 'disallowed' GROUP BY bot"`,
			Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runQuery(cmd.Context(), e, &opt, args[0])
			},
		}
		cmd.Flags().StringVar(&opt.db, "db", "", "DuckDB file written by audit --db (required)")
		cmd.Flags().BoolVar(&opt.csv, "csv", false, "print CSV instead of a table")
		return cmd
	})
}

func runQuery(ctx context.Context, e *env, opt *queryOptions, query string) error {
	if opt.db == "" {
		return usageErr("query: --db FILE is required (a database written by audit --db)")
	}
	if _, err := os.Stat(opt.db); err != nil {
		return usageErr("query: %v", err)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := audit.OpenStoreReadOnly(ctx, opt.db)
	if err != nil {
		return usageErr("query: %v", err)
	}
	defer s.Close()
	if opt.csv {
		if err := s.WriteCSV(ctx, e.stdout, query); err != nil {
			return queryErr(err)
		}
		return nil
	}
	var cols []string
	var out [][]string
	err = s.Each(ctx, query, func(c []string) error { cols = c; return nil }, func(vals []any) error {
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = formatValue(v)
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		return queryErr(err)
	}
	return writeGrid(e, cols, out)
}

// queryErr reports a failed query, saying why when the read-only guard
// refused it.
func queryErr(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "read-only mode") || strings.Contains(msg, "disabled by configuration") ||
		strings.Contains(msg, "configuration has been locked") || strings.Contains(msg, "disabled through configuration") {
		return usageErr("query: %v\n(crawlaudit query opens the audit read-only: SQL can read it, never change it, attach, load extensions or touch other files; run audit --db again to make a new one)", err)
	}
	return usageErr("query: %v", err)
}

func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	case sql.RawBytes:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func writeGrid(e *env, cols []string, rows [][]string) error {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = len(c)
	}
	for _, r := range rows {
		for i, c := range r {
			r[i] = report.Printable(c, 80)
			if n := len([]rune(r[i])); n > widths[i] {
				widths[i] = n
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(e.stdout, b.String())
	}
	line(cols)
	for _, r := range rows {
		line(r)
	}
	fmt.Fprintf(e.stderr, "(%d rows)\n", len(rows))
	return nil
}
