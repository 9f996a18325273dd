//go:build duckdb_arrow

package audit

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// OutFiles are the files WriteOut writes (contract §2.2).
var OutFiles = []string{"summary.json", "violations.csv", "breaches.csv", "blocklist.txt"}

// BlockKinds are the kinds of finding that may put a client address on the
// block list (--block-on; contract §8), in the order of the parameters of
// queries/blocklist.sql.
var BlockKinds = []string{"disallowed", "spoofed", "in-grace", "crawl-delay", "request-rate", "visit-time"}

// DefaultBlockOn is the default of --block-on.
var DefaultBlockOn = []string{"disallowed", "spoofed"}

// BlockPolicy says who qualifies for the block list (contract §8).
type BlockPolicy struct {
	// On are the kinds of BlockKinds that qualify an address; empty:
	// DefaultBlockOn.
	On []string
	// Min is how many requests of one kind qualify an address (--block-min;
	// below 1: 1).
	Min int
	// Verified lets an address verified as its crawler's operator's qualify
	// (--block-verified). Without it, such an address is never written.
	Verified bool
}

// ParseBlockOn parses a --block-on list ("disallowed,spoofed").
func ParseBlockOn(s string) ([]string, error) {
	var kinds []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(BlockKinds, k) {
			if k == "unreachable" {
				return nil, fmt.Errorf("%q needs the robots.txt availability periods (contract §12), which this version does not compute yet", k)
			}
			return nil, fmt.Errorf("unknown kind %q (kinds: %s)", k, strings.Join(BlockKinds, ", "))
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("no kind given (kinds: %s)", strings.Join(BlockKinds, ", "))
	}
	return kinds, nil
}

func (p BlockPolicy) normalized() BlockPolicy {
	if len(p.On) == 0 {
		p.On = DefaultBlockOn
	}
	if p.Min < 1 {
		p.Min = 1
	}
	return p
}

// args returns the parameters of queries/blocklist.sql.
func (p BlockPolicy) args() []any {
	args := []any{p.Min}
	for _, k := range BlockKinds {
		args = append(args, slices.Contains(p.On, k))
	}
	return append(args, p.Verified)
}

// WriteOut writes the audit's files into dir (created if needed), each to a
// temporary name renamed when complete. block says who goes on the block
// list.
func (r *Result) WriteOut(ctx context.Context, dir string, block BlockPolicy) error {
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
		return r.WriteBlocklist(ctx, w, block)
	})
}

// BlockEntry is one address that qualifies for the block list, with why.
type BlockEntry struct {
	Addr string
	// Counts of its requests per kind of BlockKinds.
	Disallowed, Spoofed, InGrace, CrawlDelay, RequestRate, VisitTime int64
	// Verified: some of its requests were verified as their crawler's
	// operator's (only with BlockPolicy.Verified).
	Verified bool
	// Bots and Identities are comma lists.
	Bots, Identities    string
	FirstSeen, LastSeen time.Time
}

// Blocklist returns the client addresses that qualify under p (contract §8),
// as the database holds them; the report writer validates them.
func (r *Result) Blocklist(ctx context.Context, p BlockPolicy) ([]BlockEntry, error) {
	if err := r.materialize(ctx); err != nil {
		return nil, err
	}
	rows, err := r.store.Query(ctx, queries.SQL("blocklist.sql"), p.normalized().args()...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var entries []BlockEntry
	for rows.Next() {
		var e BlockEntry
		if err := rows.Scan(&e.Addr, &e.Disallowed, &e.Spoofed, &e.InGrace, &e.CrawlDelay, &e.RequestRate, &e.VisitTime,
			&e.Verified, &e.Bots, &e.Identities, &e.FirstSeen, &e.LastSeen); err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, rows.Err()
}

// WriteBlocklist writes blocklist.txt to w.
func (r *Result) WriteBlocklist(ctx context.Context, w io.Writer, p BlockPolicy) error {
	p = p.normalized()
	entries, err := r.Blocklist(ctx, p)
	if err != nil {
		return err
	}
	ips := make([]string, len(entries))
	for i, e := range entries {
		ips[i] = e.Addr
	}
	verified := "never an address verified as its crawler's operator's (--block-verified to allow)"
	if p.Verified {
		verified = "verified addresses included (--block-verified)"
	}
	header := fmt.Sprintf("crawlaudit block list: client addresses with at least %d request(s) of a kind in --block-on %s;\n%s\n"+
		"robots.txt: %s (profile %s); made %s", p.Min, strings.Join(p.On, ","), verified, r.Summary.Audit.Robots, r.Summary.Audit.Spec,
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
