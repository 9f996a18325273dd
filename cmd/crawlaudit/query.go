package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/report"
)

// queryOptions are the flags of `crawlaudit query`.
type queryOptions struct {
	db   string
	csv  bool
	json bool
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
crawl_delay_breach, request_rate_breach, crawl_delay_unsupported, identity,
identity_evidence, signature_status, signer,
pref_exposed). Also: bots (bot, operator, purpose),
traffic (host, humans, bots); requests has the same rows with ids into dict
(id, value) instead of names.`,
			Example: `  crawlaudit audit --robots testdata/sample/robots --db /tmp/audit.duckdb testdata/sample/access-2026-10.log.gz
  crawlaudit query --db /tmp/audit.duckdb "SELECT bot, count(*) FROM judged WHERE verdict = 'disallowed' GROUP BY bot"`,
			Args: func(cmd *cobra.Command, args []string) error {
				if len(args) != 1 {
					return usageErr("query: give exactly one SQL statement, quoted as one argument (%d arguments given); see crawlaudit query --help", len(args))
				}
				return nil
			},
			RunE: func(cmd *cobra.Command, args []string) error {
				return runQuery(cmd.Context(), e, &opt, args[0])
			},
		}
		cmd.Flags().StringVar(&opt.db, "db", "", "DuckDB file written by audit --db (required)")
		cmd.Flags().BoolVar(&opt.csv, "csv", false, "print CSV instead of a table")
		cmd.Flags().BoolVar(&opt.json, "json", false, "print one JSON object per row (JSON lines), keys in column order")
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
	s, err := store.OpenReadOnly(ctx, opt.db)
	if err != nil {
		return usageErr("query: %v", err)
	}
	defer s.Close()
	if opt.csv && opt.json {
		return usageErr("query: --csv and --json exclude each other")
	}
	if opt.csv {
		if err := audit.WriteCSV(ctx, s, e.stdout, query); err != nil {
			return queryErr(err)
		}
		return nil
	}
	if opt.json {
		if err := writeJSONLines(ctx, e, s, query); err != nil {
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

// writeJSONLines prints the rows of query as JSON lines: one object per
// row, its keys the column names in column order; times in RFC 3339 (UTC),
// NULL as null, lists and structs as JSON arrays and objects.
func writeJSONLines(ctx context.Context, e *env, s *store.Store, query string) error {
	var keys [][]byte
	bw := bufio.NewWriter(e.stdout)
	err := s.Each(ctx, query, func(cols []string) error {
		for _, c := range cols {
			k, err := json.Marshal(c)
			if err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return nil
	}, func(vals []any) error {
		bw.WriteByte('{')
		for i, v := range vals {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.Write(keys[i])
			bw.WriteByte(':')
			b, err := json.Marshal(jsonValue(v))
			if err != nil {
				return fmt.Errorf("column %s: %w", keys[i], err)
			}
			bw.Write(b)
		}
		bw.WriteString("}\n")
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// jsonValue makes a scanned value JSON-encodable: bytes as text, times in
// UTC, NaN and infinities as strings, nested lists and maps likewise.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case sql.RawBytes:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
		return x
	case float32:
		return jsonValue(float64(x))
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = jsonValue(y)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			out[k] = jsonValue(y)
		}
		return out
	case nil, bool, string, int, int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		return x
	default:
		return fmt.Sprint(x)
	}
}
