package audit

import (
	"context"
	"fmt"
	"sync"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// streamKeys is what the judge keeps, while the logs stream, of the
// requests of each bot, host and identity (a key), so that the summary
// need not have DuckDB sort or scan them again afterwards: the Crawl-delay
// and Request-rate windows (measure.Windows, this file), the reactions to
// robots.txt changes (measure.Reaction, changes_stream.go) and the
// availability of robots.txt (measure.Availability, availability_stream.go).
//
// The judge meets requests in no order (parsing goroutines hand over their
// batches as they fill, and several files interleave), so it keeps, per key
// that some robots.txt version may limit (judge.mayLimit), the time, file,
// line and policy of each request, which measure.Windows sorts at the end
// unless they came in order. The SQL's window functions (queries/measures.sql)
// then run only when the windows were not streamed (see windowsStreamed);
// measure_sql_test.go holds both to the same answers.
//
// Memory is bounded: a log with more than maxStreamKeys keys (millions of
// invented bot names) turns it all off, more than maxStreamRequests kept
// requests the windows, and more than maxStreamTimes request times the
// changes: the SQL then measures them. So does a key whose requests were
// not kept from its first on (its bot came first with a User-Agent that no
// version limits, then with one that one does) for the windows.
type streamKeys struct {
	index    map[uint64]int32 // by streamKeyOf
	keys     []streamKey
	requests int // kept for the windows
	off      bool
	// windowsOff: the windows are left to the SQL.
	windowsOff bool
	// changes are the robots.txt changes (changes_stream.go).
	changes streamChanges
	// avail is what availability.sql reads (availability_stream.go).
	avail streamAvail
	// The conduct of each key (conduct_stream.go): conductOff when it is
	// left to the SQL, the requests kept, and the rows of measure.
	conductOff      bool
	conductRequests int
	conductLimit    int // maxConductRequests, or maxLeanConductRequests (setLean)
}

// maxStreamKeys, maxStreamRequests and maxStreamTimes are the numbers of
// keys, of requests kept for the windows (32 bytes each: 64 MiB) and of
// request times kept for the changes (64 MiB) from which streamKeys gives
// up. Tests lower them.
var (
	maxStreamKeys     = 1 << 16
	maxStreamRequests = 1 << 21
	maxStreamTimes    = 1 << 23
)

// streamKey is what streamKeys keeps of one bot, host and identity.
type streamKey struct {
	bot, host int32
	identity  uint8
	kept      bool // its requests are kept: some version may limit it
	windows   measure.Windows
	// changes has what the key did around each change of its host,
	// whose indices in streamChanges.list are changeIDs; made at its first
	// request to a host with changes.
	changes   []keyChange
	changeIDs []int32
	// conduct has its requests for measure.Conduct; contact tells that
	// one of its User-Agents carries a URL or an address.
	conduct measure.Conduct
	contact bool
}

// streamRow is what the judge tells streamKeys of one request of a bot.
type streamRow struct {
	bot, host int32 // dict ids of its bot's name and its host
	identity  uint8
	us        int64 // Unix µs
	file      int32 // dict id of its file's name
	line      int64
	policy    int32 // what robots.txt put in force; -1: nothing
	// may: some robots.txt version may limit its bot on its host
	// (judge.mayLimit).
	may bool
	// For the changes: its User-Agent's state, whether it asked for
	// /robots.txt, the dict id of the rule that disallowed it (verdict
	// disallowed or disallowed_in_grace; -1: none), and the indices of
	// its host's changes in streamChanges.list.
	ua        *uaState
	fetch     bool
	breakRule int32
	changes   []int32
	// For the conduct (conduct_stream.go): the request's URL, status and
	// Retry-After, and whether its User-Agent carries a contact.
	conduct conductRow
	contact bool
	// addr is its client address for the block list of a lean audit (a
	// leanAddr; -1: not wanted): the windows count its breaches by it.
	addr int32
}

func newStreamKeys(hist *history.History) *streamKeys {
	s := &streamKeys{index: make(map[uint64]int32), conductLimit: maxConductRequests}
	s.changes.init(hist)
	return s
}

// setLean raises the conduct's bound for a lean pass, whose rows DuckDB
// does not hold.
func (w *streamKeys) setLean() { w.conductLimit = maxLeanConductRequests }

// streamKeyOf packs a key; ok is false when the ids do not fit (a host's
// dict id of 2^30 or more).
func streamKeyOf(bot, host int32, identity uint8) (uint64, bool) {
	if host < 0 || host >= 1<<30 || bot < 0 || identity > 3 {
		return 0, false
	}
	return uint64(uint32(bot))<<32 | uint64(host)<<2 | uint64(identity), true
}

// add takes one request of a bot.
func (w *streamKeys) add(r *streamRow) {
	if w.off {
		return
	}
	var i int32
	if ua := r.ua; ua != nil && ua.streamKey > 0 && ua.streamHost == r.host && ua.streamIdentity == r.identity && ua.streamBot == r.bot {
		i = ua.streamKey - 1 // its User-Agent's last key: no lookup
	} else {
		packed, ok := streamKeyOf(r.bot, r.host, r.identity)
		if !ok {
			w.turnOff()
			return
		}
		if i, ok = w.index[packed]; !ok {
			if len(w.keys) >= maxStreamKeys {
				w.turnOff()
				return
			}
			i = int32(len(w.keys))
			w.keys = append(w.keys, streamKey{bot: r.bot, host: r.host, identity: r.identity, kept: r.may})
			w.index[packed] = i
		}
		if ua != nil {
			ua.streamKey, ua.streamBot, ua.streamHost, ua.streamIdentity = i+1, r.bot, r.host, r.identity
		}
	}
	k := &w.keys[i]
	w.addConduct(k, r)
	if len(r.changes) > 0 && !w.changes.off && !w.changes.add(k, r) {
		w.dropChanges()
	}
	if w.windowsOff {
		return
	}
	if !k.kept {
		if r.may {
			w.dropWindows() // its earlier requests are not kept
		}
		return
	}
	if w.requests >= maxStreamRequests {
		w.dropWindows()
		return
	}
	k.windows.Add(measure.Request{US: r.us, Line: r.line, File: r.file, Limit: r.policy, Key: r.addr})
	w.requests++
}

// dropChanges leaves the changes to the SQL.
func (w *streamKeys) dropChanges() {
	w.changes.drop()
	for i := range w.keys {
		w.keys[i].changes, w.keys[i].changeIDs = nil, nil
	}
}

// dropWindows leaves the windows to the SQL.
func (w *streamKeys) dropWindows() {
	w.windowsOff = true
	for i := range w.keys {
		w.keys[i].windows = measure.Windows{}
	}
}

// turnOff gives up: the SQL measures the windows and the changes.
func (w *streamKeys) turnOff() {
	w.off, w.windowsOff = true, true
	w.index, w.keys = nil, nil
	w.changes.drop()
	w.conductOff = true
}

// windowsStreamed reports whether w measured the windows of every key
// (else the SQL must).
func (w *streamKeys) windowsStreamed() bool { return w != nil && !w.windowsOff }

// rows returns the keys with a limit, with what they breached
// (measure.Windows), as rows of the table summary_breaches (bot_id,
// host_id, identity_code, crawl_delay_breaches, request_rate_breaches,
// crawl_delay_unsupported); policies are the judge's. byAddr, when not
// nil, receives the breaches of Crawl-delay and Request-rate per client
// address (streamRow.addr; the requests of no address are not counted).
func (w *streamKeys) rows(policies []policy, byAddr map[int32][2]int64) [][]any {
	if !w.windowsStreamed() {
		return nil
	}
	limits := make([]measure.Limit, len(policies))
	for i, p := range policies {
		limits[i] = measure.Limit{CrawlDelay: p.crawlDelay, HasDelay: p.hasDelay, DelayIgnored: p.delayIgnored,
			RateN: p.rateN, RateS: p.rateS, HasRate: p.hasRate}
	}
	var out [][]any
	for i := range w.keys {
		k := &w.keys[i]
		if !k.kept {
			continue
		}
		var (
			b       measure.Breaches
			limited bool
		)
		if byAddr == nil {
			b, limited = k.windows.Breaches(limits, k.identity == uint8(verify.Spoofed))
		} else {
			b, limited = k.windows.BreachesBy(limits, k.identity == uint8(verify.Spoofed), func(addr int32, cd, rr bool) {
				if addr == -1 {
					return
				}
				n := byAddr[addr]
				if cd {
					n[0]++
				}
				if rr {
					n[1]++
				}
				byAddr[addr] = n
			})
		}
		if !limited {
			continue
		}
		out = append(out, []any{k.bot, k.host, k.identity, b.CrawlDelay, b.RequestRate, b.CrawlDelayUnsupported})
	}
	return out
}

// measure starts computing, in the background, the breaches of the
// windows (rows(policies)) and the conduct (conductRows) of every key; the
// judge must be done. The sorts take a few milliseconds of the other core
// while DuckDB stores the small tables and measures the availability:
// streamedSummary.store waits for them only when the summary needs them.
// byAddr: count the breaches per client address too (addrBreaches).
func (w *streamKeys) measure(policies []policy, byAddr bool) *streamedSummary {
	m := &streamedSummary{done: make(chan struct{}), windows: w.windowsStreamed(), conduct: w.conductStreamed()}
	if byAddr && m.windows {
		m.addrBreaches = map[int32][2]int64{}
	}
	if !m.windows && !m.conduct {
		close(m.done)
		return m
	}
	go func() {
		var wg sync.WaitGroup
		wg.Go(func() { m.conductRows = w.conductRows() })
		m.windowRows = w.rows(policies, m.addrBreaches)
		wg.Wait()
		close(m.done)
	}()
	return m
}

// windowsStreamed reports whether m holds the breaches of every key.
func (m *streamedSummary) windowsStreamed() bool { return m != nil && m.windows }

// streamedSummary is what the judge's stream measured for the summary: the
// breaches of the windows and the conduct of each key, when they were
// streamed (else the SQL measures them over the stored requests).
type streamedSummary struct {
	done chan struct{} // closed when the rows are in
	// windows and conduct tell whether each was streamed.
	windows, conduct        bool
	windowRows, conductRows [][]any
	// addrBreaches are the Crawl-delay and Request-rate breaches per
	// client address (leanAddr), for a lean audit's block list; read once
	// done is closed.
	addrBreaches map[int32][2]int64
}

// store makes the temporary tables summary_breaches and summary_conduct
// that summary_counted.sql joins: from the streamed rows, or from the SQL
// measures (queries/summary_breaches.sql over the macro window_measures of
// measures.sql, which the caller made; queries/summary_conduct.sql over
// conduct.sql's conduct_measures) for what was not streamed. Each statement
// of a macro costs DuckDB a plan even when a condition leaves it nothing to
// read, so only what is needed runs.
func (m *streamedSummary) store(ctx context.Context, s *store.Store) error {
	if m == nil {
		m = &streamedSummary{} // nothing streamed
	} else {
		<-m.done
	}
	if m.windows {
		if err := s.Exec(ctx, `CREATE OR REPLACE TEMP TABLE summary_breaches (bot_id INTEGER, host_id INTEGER,
    identity_code UTINYINT, crawl_delay_breaches BIGINT, request_rate_breaches BIGINT, crawl_delay_unsupported BIGINT)`); err != nil {
			return err
		}
		if err := s.InsertValues(ctx, "summary_breaches", m.windowRows); err != nil {
			return err
		}
	} else if err := s.Exec(ctx, queries.SQL("summary_breaches.sql")); err != nil {
		return err
	}
	if m.conduct {
		return storeConduct(ctx, s, m.conductRows)
	}
	if err := conductSQL(ctx, s); err != nil {
		return err
	}
	if err := s.Exec(ctx, queries.SQL("summary_conduct.sql")); err != nil {
		return fmt.Errorf("the conduct of the bots: %w", err)
	}
	return nil
}
