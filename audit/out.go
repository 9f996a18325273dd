//go:build duckdb_arrow

package audit

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// OutFiles are the files WriteOut writes (contract §2.2).
var OutFiles = []string{"summary.json", "violations.csv", "breaches.csv", "blocklist.txt"}

// WriteOut writes the audit's files into dir (created if needed), each to a
// temporary name renamed when complete. blockMin is the number of disallowed
// requests that puts an address on the block list (--block-min).
func (r *Result) WriteOut(ctx context.Context, dir string, blockMin int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create output directory: %w", err)
	}
	if err := r.materialize(ctx); err != nil {
		return err
	}
	if err := report.WriteFileAtomic(filepath.Join(dir, "summary.json"), func(w io.Writer) error {
		return report.WriteJSON(w, &r.Summary)
	}); err != nil {
		return err
	}
	for _, f := range []struct{ file, query string }{
		{"violations.csv", "violations.sql"},
		{"breaches.csv", "breaches.sql"},
	} {
		if err := report.WriteFileAtomic(filepath.Join(dir, f.file), func(w io.Writer) error {
			return r.store.WriteCSV(ctx, w, queries.SQL(f.query))
		}); err != nil {
			return fmt.Errorf("%s: %w", f.file, err)
		}
	}
	return report.WriteFileAtomic(filepath.Join(dir, "blocklist.txt"), func(w io.Writer) error {
		return r.WriteBlocklist(ctx, w, blockMin)
	})
}

// Blocklist returns the client addresses whose bots made at least blockMin
// disallowed requests (contract §8), as the database holds them; the
// report writer validates them.
func (r *Result) Blocklist(ctx context.Context, blockMin int) ([]string, error) {
	if err := r.materialize(ctx); err != nil {
		return nil, err
	}
	rows, err := r.store.Query(ctx, queries.SQL("blocklist.sql"), blockMin)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ips []string
	for rows.Next() {
		var ip, bots string
		var n int64
		if err := rows.Scan(&ip, &n, &bots); err != nil {
			return nil, err
		}
		ips = append(ips, ip)
	}
	return ips, rows.Err()
}

// WriteBlocklist writes blocklist.txt to w.
func (r *Result) WriteBlocklist(ctx context.Context, w io.Writer, blockMin int) error {
	if blockMin < 1 {
		blockMin = 1
	}
	ips, err := r.Blocklist(ctx, blockMin)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("crawlaudit block list: clients of bots with at least %d request(s) disallowed by robots.txt\n"+
		"robots.txt: %s (profile %s); made %s", blockMin, r.Summary.Audit.Robots, r.Summary.Audit.Spec,
		time.Now().UTC().Format(time.RFC3339))
	if in := r.Summary.Input; in.From != nil && in.To != nil {
		header += fmt.Sprintf("\nlogs: %s to %s", in.From.Format(time.RFC3339), in.To.Format(time.RFC3339))
	}
	_, err = report.WriteBlocklist(w, ips, header)
	return err
}

// WriteCSV writes the result of query as CSV: strings as neutralised text
// cells (report.CSVWriter), numbers, booleans and times as themselves, NULL
// as an empty cell.
func (s *Store) WriteCSV(ctx context.Context, w io.Writer, query string, args ...any) error {
	cw := report.NewCSVWriter(w)
	err := s.Each(ctx, query, func(cols []string) error { return cw.Header(cols...) }, func(vals []any) error {
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
