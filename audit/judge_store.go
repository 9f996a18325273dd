//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/queries"
)

// judgeInto reads logs through the ingest layer, judges every batch and
// inserts the judged bot requests into the table "requests" of the pending
// store, or, for a lean audit (judge.lean), their counts into lean_counts.
// Inserts run in their own goroutine, which first waits for the store to
// open, so that parsing and judging go on while DuckDB copies the previous
// batch; the channel bounds the batches in flight. A store error stops the
// reading. It returns the accounting of ingest.Run, the time spent in
// inserts, the input error of ingest.Run, and a store error.
func (j *judge) judgeInto(ctx context.Context, pending *pendingStore, opts ingest.Options, logs []string) (acc *ingest.Accounting, insertTime time.Duration, inputErr, err error) {
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	toStore := make(chan arrow.RecordBatch, 2)
	stored := make(chan error, 1)
	go func() {
		// One transaction for every batch: DuckDB appends each INSERT to
		// the transaction's own storage, and moves that storage into the
		// table at COMMIT when the table is empty or it holds at least a
		// row group, instead of copying it row by row at the end of each
		// statement: a second copy of every row (docs/performance.md has
		// the figures).
		db, err := pending.wait()
		if err == nil && j.lean != nil {
			err = db.Exec(ctx, queries.SQL("lean.sql"))
		}
		if err == nil {
			err = db.Exec(ctx, "BEGIN TRANSACTION")
		}
		began := err == nil
		for rec := range toStore {
			if err == nil {
				t := time.Now()
				if rec.Schema().Equal(DictSchema) {
					err = db.Insert(ctx, "dict", rec)
				} else {
					err = insertJudged(ctx, db, rec)
				}
				insertTime += time.Since(t)
				if err != nil {
					stopReading()
				}
			}
			rec.Release()
		}
		if began {
			t := time.Now()
			if err == nil {
				err = db.Exec(ctx, "COMMIT")
			} else {
				db.Exec(ctx, "ROLLBACK")
			}
			insertTime += time.Since(t)
		}
		stored <- err
	}()
	flush := func() {
		if j.pending() > 0 {
			// A lean judge builds no row (judge.add counts them in
			// j.lean), but may still flush when its claims are full.
			if rec := j.flush(); j.lean == nil {
				toStore <- rec
			} else {
				rec.Release()
			}
		}
		if j.lean != nil && j.lean.full() {
			toStore <- j.lean.take(j.mem)
		}
		for _, rec := range j.spilled() {
			toStore <- rec
		}
		// The dict entries made so far go too: DuckDB copies them while
		// the logs are read rather than after.
		if len(j.dict) > j.dictStored && j.lean == nil {
			toStore <- j.dictBatch(j.mem, j.dictStored)
			j.dictStored = len(j.dict)
		}
	}
	// The files' dict ids follow the order of the inputs, not that of the
	// batches: the windows order the requests of one instant by file id,
	// then line (queries/measures.sql), which must not depend on which
	// goroutine finished first.
	opts.Files = func(names []string) {
		for _, n := range names {
			id := j.intern(n)
			if j.lean != nil {
				j.lean.name(id)
			}
		}
	}
	filters := &humanFilters{ident: j.ident, fromUS: j.fromUS, toUS: j.toUS, collect: j.collectClients, trusted: j.trusted}
	if sigPrecheck {
		filters.sig = j.sig
	}
	opts.RowFilter = filters.newFilter
	j.handoff = &filters.handoff
	defer func() { j.handoff = nil }()
	// The judge reads neither the protocol nor the Referer, nor the
	// forwarded chain without trusted proxies: they are not built. The
	// scheme and the Web Bot Auth headers are, for signed requests: a log
	// without them pays a nil check per row (ingest's sparse columns).
	opts.Skip = []int{ingest.ColProtocol, ingest.ColReferer}
	if len(j.trusted) == 0 {
		opts.Skip = append(opts.Skip, ingest.ColForwardedFor)
	}
	acc, inputErr = ingest.Run(readCtx, logs, opts, func(rec arrow.RecordBatch) error {
		if err := j.add(rec); err != nil {
			return err
		}
		if j.lean != nil {
			if why := j.leanGaveUp(); why != "" {
				return fmt.Errorf("%w: %s", errNeedsRows, why) // stop now: Run reads the logs again
			}
		}
		if j.pending() >= flushRows || j.lean != nil && j.lean.full() {
			flush()
		}
		return nil
	})
	flush()
	if j.lean != nil && len(j.lean.rows) > 0 {
		toStore <- j.lean.take(j.mem)
	}
	filters.addTo(j)
	// The windows and the conduct are measured while DuckDB stores the
	// last batches and the small tables.
	j.measured = j.stream.measure(j.policies, j.lean != nil && j.lean.blocks != nil)
	close(toStore)
	err = <-stored
	return acc, insertTime, inputErr, err
}

// pendingStore is a Store being opened in the background.
type pendingStore struct {
	done  chan struct{}
	store *store.Store
	err   error
}

// openStoreAsync starts opening the audit's database: it opens the store
// (path: a new file, or "" for memory) and has DuckDB
// copy batches on one thread (see judgeInto), while the caller goes on.
func openStoreAsync(ctx context.Context, path, spillDir string) *pendingStore {
	p := &pendingStore{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		s, err := store.OpenWith(ctx, path, store.Options{SpillDir: spillDir})
		if err != nil {
			p.err = err
			return
		}
		// While the logs are read, the parsing goroutines keep every core
		// busy: DuckDB copies batches on one thread, which costs half the
		// CPU time of a copy spread over two. The SQL afterwards has all
		// of them, unless the audit is lean and small (sqlThreads).
		if err := s.SetThreads(ctx, 1); err != nil {
			s.Close()
			p.err = err
			return
		}
		p.store = s
	}()
	return p
}

// wait returns the store once it is open, or the error that stopped it.
func (p *pendingStore) wait() (*store.Store, error) {
	<-p.done
	return p.store, p.err
}

// storeTables writes the bots rows the judge still holds, and the traffic,
// policies and decisions tables (a lean audit only traffic), many rows per
// statement.
func (j *judge) storeTables(ctx context.Context, s *store.Store) error {
	// The bots rows not spilled yet (see spillWhileJudging).
	bots := j.botsOut.take()
	err := s.Insert(ctx, "bots", bots)
	bots.Release()
	if err != nil {
		return err
	}
	var traffic [][]any
	for h, t := range j.traffic() {
		traffic = append(traffic, []any{h, t.humans, t.bots})
	}
	var policies, decisions [][]any
	if j.lean != nil {
		// Only the view requests reads them, over no request: the lean
		// counts carry the verdicts.
		return s.InsertValues(ctx, "traffic", traffic)
	}
	for id, p := range j.policies {
		row := []any{id, p.version, nullID(p.group), nil, nil, nil, nullID(p.visit), p.delayIgnored}
		if p.hasDelay {
			row[3] = p.crawlDelay
		}
		if p.hasRate {
			row[4], row[5] = p.rateN, p.rateS
		}
		policies = append(policies, row)
	}
	for id, d := range j.decisions {
		row := []any{id, d.verdict, nullID(d.rule), nil}
		if d.rule >= 0 {
			row[3] = d.line
		}
		decisions = append(decisions, row)
	}
	for _, t := range []struct {
		name string
		rows [][]any
	}{{"traffic", traffic}, {"policies", policies}, {"decisions", decisions}} {
		if err := s.InsertValues(ctx, t.name, t.rows); err != nil {
			return err
		}
	}
	return nil
}

// nullID returns id, or nil (NULL) for -1.
func nullID(id int32) any {
	if id < 0 {
		return nil
	}
	return id
}
