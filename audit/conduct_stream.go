package audit

import (
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/verify"
)

// conductRow is what the judge tells streamKeys of one request for its
// bot's conduct (measure.Conduct): which URL (urlKey), its status (-1:
// none logged) and the wait its Retry-After asked for (-1: none).
type conductRow struct {
	url    uint64
	status int16
	waitS  int32
}

// urlSeed hashes the targets that are not interned; one seed per process,
// since the keys are compared only within one audit.
var urlSeed = maphash.MakeSeed()

// urlKey numbers a target for measure.Conduct: its dict id, or, for a
// target not interned (a value is always written the same way, see
// RequestsSchema), a hash of it with the top bit set so that it never
// equals an id.
func urlKey(tid int32, target string) uint64 {
	if tid >= 0 {
		return uint64(tid)
	}
	return maphash.String(urlSeed, target) | 1<<63
}

// statusCode fits a logged status into measure.ConductRequest's: one
// outside 0..999 is none.
func statusCode(v int32) int16 {
	if v < 0 || v > 999 {
		return -1
	}
	return int16(v)
}

// maxConductRequests is how many requests streamKeys keeps for the conduct
// measures (24 bytes each: 48 MiB) before it leaves them to the SQL
// (queries/conduct.sql). maxLeanConductRequests (120 MiB) is the bound of
// a lean pass: DuckDB holds no rows then, so the judge may keep more, and
// a pass that gives up reads the logs a second time. It keeps a lean pass
// under Go's soft limit while the logs are read (docs/performance.md,
// "The conduct on a large month"). Tests lower them.
var (
	maxConductRequests     = 1 << 21
	maxLeanConductRequests = 5 << 20
)

// addConduct takes one request of key k for its conduct.
func (w *streamKeys) addConduct(k *streamKey, r *streamRow) {
	if w.conductOff {
		return
	}
	if w.conductRequests >= w.conductLimit {
		w.dropConduct()
		return
	}
	k.contact = k.contact || r.contact
	k.conduct.Add(measure.ConductRequest{US: r.us, URL: r.conduct.url, Status: r.conduct.status, WaitS: r.conduct.waitS})
	w.conductRequests++
}

// dropConduct leaves the conduct measures to the SQL.
func (w *streamKeys) dropConduct() {
	w.conductOff = true
	for i := range w.keys {
		w.keys[i].conduct = measure.Conduct{}
	}
}

// conductStreamed reports whether w measured the conduct of every key.
func (w *streamKeys) conductStreamed() bool { return w != nil && !w.off && !w.conductOff }

// conductRows returns the rows of the table summary_conduct (bot_id,
// host_id, identity_code, no_backoff, repeat_fetches, not_modified,
// refetch_median_hours, contact), one per key. The keys are measured on
// every core: this runs once the logs are read, before the summary.
func (w *streamKeys) conductRows() [][]any {
	if !w.conductStreamed() {
		return nil
	}
	out := make([][]any, len(w.keys))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(w.keys)))
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for i := g; i < len(w.keys); i += workers {
				k := &w.keys[i]
				res := k.conduct.Finish()
				k.conduct = measure.Conduct{}
				var median any
				if res.HasRefetch {
					median = measure.Hours(res.RefetchMedianUS)
				}
				out[i] = []any{k.bot, k.host, k.identity, res.NoBackoff, res.RepeatFetches, res.NotModified, median, k.contact}
			}
		})
	}
	wg.Wait()
	return out
}

// storeConduct writes the conduct rows streamed (conductRows) as the
// temporary table summary_conduct: one statement of literals (the rows are
// numbers and flags), which DuckDB runs several times as fast as as many
// bound parameters.
func storeConduct(ctx context.Context, s *store.Store, rows [][]any) error {
	var q strings.Builder
	q.WriteString(`CREATE OR REPLACE TEMP TABLE summary_conduct (bot_id INTEGER, host_id INTEGER,
    identity_code UTINYINT, no_backoff BIGINT, repeat_fetches BIGINT, not_modified BIGINT,
    refetch_median_hours DOUBLE, contact BOOLEAN)`)
	for i, r := range rows {
		if i%1000 == 0 {
			q.WriteString(";\nINSERT INTO summary_conduct VALUES ")
		} else {
			q.WriteString(", ")
		}
		median := "NULL"
		if h, ok := r[6].(float64); ok {
			median = strconv.FormatFloat(h, 'g', -1, 64)
		}
		fmt.Fprintf(&q, "(%d, %d, %d, %d, %d, %d, %s, %t)", r[0], r[1], r[2], r[3], r[4], r[5], median, r[7])
	}
	if err := s.Exec(ctx, q.String()); err != nil {
		return fmt.Errorf("the conduct of the bots: %w", err)
	}
	return nil
}

// conductSQL makes the macro conduct_measures (queries/conduct.sql) with
// the contact pattern it reads.
func conductSQL(ctx context.Context, s *store.Store) error {
	if err := s.Exec(ctx, "SET VARIABLE contact_pattern = "+sqlString(measure.ContactPattern)); err != nil {
		return err
	}
	if err := s.Exec(ctx, queries.SQL("conduct.sql")); err != nil {
		return fmt.Errorf("the conduct of the bots: %w", err)
	}
	return nil
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// publishesRanges is a bot row's conduct.publishes_ranges: whether the
// crawler's operator publishes its ranges. A spoofed row's requests came
// from someone else, who publishes none.
func publishesRanges(r *verify.Ranges, bot, identity string) bool {
	return r != nil && identity != report.IdentitySpoofed && r.PublishesRanges(bot)
}
