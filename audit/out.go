//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
	"github.com/crawlaudit/crawlaudit/report/markdown"
	"github.com/crawlaudit/crawlaudit/report/page"
)

// OutFiles are the files WriteOut writes, the names users and their
// scripts rely on (docs/commands.md).
var OutFiles = []string{"summary.json", "violations.csv", "breaches.csv", "blocklist.txt", "report.html", "report.md", "agents.json"}

// csvFiles are the CSV files of WriteOut: the rows query (on ids), the
// table store.Store.Named makes of it with the names, and the query of the file
// over that table.
var csvFiles = []struct {
	file, rows, table, query string
	names                    []store.IDName
}{
	{"violations.csv", "violations_rows.sql", "violation_rows", "violations.sql", []store.IDName{
		{ID: "host_id", As: "host"}, {ID: "method_id", As: "method"}, {ID: "rule_id", As: "rule"},
		{ID: "robots_version_id", As: "robots_version"}, {ID: "robots_group_id", As: "robots_group"},
		{ID: "verdict_id", As: "verdict"}, {ID: "file_id", As: "file"},
		{ID: "client_ip_id", As: "client_ip_name", Many: true}, {ID: "bot_id", As: "bot", Many: true},
		{ID: "target_id", As: "target_name", Many: true},
	}},
	{"breaches.csv", "breaches_rows.sql", "breach_rows", "breaches.sql", []store.IDName{
		{ID: "host_id", As: "host"}, {ID: "robots_version_id", As: "robots_version"},
		{ID: "visit_window_id", As: "visit_window"}, {ID: "file_id", As: "file"},
		{ID: "client_ip_id", As: "client_ip_name", Many: true}, {ID: "bot_id", As: "bot", Many: true},
		{ID: "target_id", As: "target_name", Many: true},
	}},
}

// WriteOut writes the audit's files into dir (created if needed):
// summary.json, violations.csv, breaches.csv, blocklist.txt, the file of
// every format in block.Formats, and the reports a person reads,
// report.html and report.md. They appear together, so that a reader never
// mixes files of two runs: each is written complete under a temporary
// name, and all are renamed into place only when every one is; on any
// error none is, the previous
// files stay as they were, and no temporary file is left. A format whose
// limit the list exceeds (AWS WAF's 10,000 addresses) is such an error.
// The files of block list formats not asked for this time, which an
// earlier run wrote, are removed with the same commit (a firewall must not
// load last month's list beside this month's); no other file of dir is
// touched. What the block list files leave out or widen is added to
// r.Warnings.
func (r *Result) WriteOut(ctx context.Context, dir string, block BlockPolicy) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create output directory: %w", err)
	}
	if err := r.materialize(ctx); err != nil {
		return err
	}
	list, stats, err := r.BlockList(ctx, block)
	if err != nil {
		return err
	}
	st := atomicfile.NewStaged(dir)
	defer st.Abort()
	st.RemoveOthers(OutFiles...)
	for _, f := range firewall.Formats() {
		for _, file := range f.Files {
			st.RemoveOthers(file.Name)
		}
	}
	// The block list's files first, and then the list is let go: the
	// report keeps what it shows of it, and the queries of the CSV files
	// and the report need DuckDB's memory while a hostile log's list is
	// hundreds of MB in Go.
	var blockFiles []string
	for _, f := range append([]firewall.Format{firewall.Text}, block.Formats...) {
		for _, file := range f.Files {
			if err := st.Write(file.Name, func(w io.Writer) error { return file.Write(w, list) }); err != nil {
				if f.Name == firewall.Text.Name {
					return err // written always: no --block-format to name
				}
				return fmt.Errorf("--block-format %s: %w", f.Name, err)
			}
			blockFiles = append(blockFiles, file.Name)
		}
	}
	opt := ReportOptions{Tool: block.Tool, BlockFiles: blockFiles}
	blockFound := blockFindings(list, stats, block.normalized(), blockFiles, opt.limits().BlockEntries)
	warnings := blockWarnings(list, block)
	// A collection now, not when the next queries' garbage asks for one:
	// until then the list's memory stays resident beside DuckDB's.
	list = nil
	debug.FreeOSMemory()
	r.store.Release(ctx)
	if err := st.Write("summary.json", func(w io.Writer) error { return report.WriteJSON(w, &r.Summary) }); err != nil {
		return err
	}
	if err := st.Write("agents.json", func(w io.Writer) error { return report.WriteAgents(w, &r.Summary) }); err != nil {
		return err
	}
	for _, f := range csvFiles {
		err := st.Write(f.file, func(w io.Writer) error {
			defer r.store.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+f.table)
			if err := r.store.Named(ctx, f.table, queries.SQL(f.rows), f.names); err != nil {
				return err
			}
			return writeCSV(ctx, r.store, w, queries.SQL(f.query), true)
		})
		if err != nil {
			return err
		}
	}
	findings, err := r.findings(ctx, blockFound, opt)
	if err != nil {
		return err
	}
	if err := st.Write("report.html", func(w io.Writer) error { return page.Write(w, findings) }); err != nil {
		return err
	}
	if err := st.Write("report.md", func(w io.Writer) error { return markdown.Write(w, findings) }); err != nil {
		return err
	}
	if r.dbWithOut && r.dbTemp != "" {
		if err := r.store.Close(); err != nil {
			return fmt.Errorf("cannot close the audit kept in %s: %w", r.dbFinal, err)
		}
		st.AlsoRename(r.dbTemp, r.dbFinal)
	}
	if err := st.Commit(); err != nil {
		return err
	}
	if r.dbWithOut {
		r.dbTemp = "" // renamed with the set
	}
	r.Warnings = append(r.Warnings, warnings...)
	return nil
}

// WriteReport writes report.html alone to path (--report FILE.html),
// atomically: under a temporary name renamed into place when complete.
// The block list section shows the list --out would write under block.
func (r *Result) WriteReport(ctx context.Context, path string, block BlockPolicy) error {
	findings, err := r.Findings(ctx, block, ReportOptions{Tool: block.Tool})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := page.Write(&buf, findings); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes())
}

// WriteCSV writes the result of query on s (one statement, read with
// EachLarge: a row per request) as CSV: strings as neutralised text
// cells (report.CSVWriter), numbers, booleans and times as themselves, NULL
// as an empty cell.
func WriteCSV(ctx context.Context, s *store.Store, w io.Writer, query string, args ...any) error {
	return writeCSV(ctx, s, w, query, false, args...)
}

// writeCSV is WriteCSV; sortApart sorts the rows in a step of their own
// (see store.Store.EachLargeSorted), for the project's queries that end
// with their order.
func writeCSV(ctx context.Context, s *store.Store, w io.Writer, query string, sortApart bool, args ...any) error {
	cw := report.NewCSVWriter(w)
	each := s.EachLarge
	if sortApart {
		each = s.EachLargeSorted
	}
	err := each(ctx, query, func(cols []string) error { return cw.Header(cols...) }, func(vals []any) error {
		for _, v := range vals {
			writeCell(cw, v)
		}
		return cw.EndRow()
	}, args...)
	if err != nil {
		return err
	}
	return cw.Flush()
}

func writeCell(cw *report.CSVWriter, v any) {
	switch x := v.(type) {
	case nil:
		cw.Null()
	case string:
		cw.Text(x)
	case []byte:
		cw.Text(string(x))
	case sql.RawBytes:
		cw.Text(string(x))
	case bool:
		cw.Bool(x)
	case int64:
		cw.Int(x)
	case int32:
		cw.Int(int64(x))
	case int16:
		cw.Int(int64(x))
	case int8:
		cw.Int(int64(x))
	case int:
		cw.Int(int64(x))
	case uint64:
		cw.Uint(x)
	case uint32:
		cw.Uint(uint64(x))
	case float64:
		cw.Float(x, -1)
	case float32:
		cw.Float(float64(x), -1)
	case time.Time:
		cw.Time(x)
	default:
		cw.Text(strings.TrimSpace(fmt.Sprint(x)))
	}
}
