//go:build duckdb_arrow

package audit

// The differential test between the measures in Go (package measure, as
// the judge's stream calls them) and their SQL reference (package
// queries): the Crawl-delay and Request-rate windows, the periods of
// unreachable or unavailable robots.txt and the requests they cover, and
// the reactions to robots.txt changes, on worked cases and random
// requests.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify"
)

// windowRow is one request of TestStreamWindowsEqualSQL.
type windowRow struct {
	bot, host int32
	identity  uint8
	us        int64
	file      int32
	line      int64
	policy    int32
}

// windowPolicies are what the random requests have in force: nothing, a
// Crawl-delay (whole, fractional, tiny), a Request-rate, both, and a
// Request-rate over a long window. Indices are policy ids.
var windowPolicies = []policy{
	{hasDelay: true, crawlDelay: 10},
	{hasDelay: true, crawlDelay: 1.5},
	{hasDelay: true, crawlDelay: 0.0000015}, // 1.5 µs: a gap of 1 µs breaches, 2 µs does not
	{hasRate: true, rateN: 3, rateS: 10},
	{hasDelay: true, crawlDelay: 5, hasRate: true, rateN: 2, rateS: 60},
	{hasRate: true, rateN: 1, rateS: 86400},
	{},                                                    // a group without limits
	{hasDelay: true, crawlDelay: 10, delayIgnored: true},  // a crawler that ignores Crawl-delay
	{hasDelay: true, crawlDelay: 1.5, delayIgnored: true}, // (crawl_delay_unsupported unless spoofed)
}

// randomWindowRows returns n requests over a few keys with many requests at
// the same instant, or one or two µs apart, from three files, in an order
// that is the window's for some keys and shuffled for others.
func randomWindowRows(rng *rand.Rand, n int) []windowRow {
	rows := make([]windowRow, 0, n)
	lines := map[int32]int64{}
	us := int64(1_790_000_000_000_000)
	for range n {
		switch rng.IntN(6) {
		case 0: // same instant
		case 1:
			us += int64(1 + rng.IntN(2))
		default:
			us += int64(rng.IntN(20)) * 1_000_000
		}
		file := int32(rng.IntN(3))
		lines[file]++
		r := windowRow{
			bot:      int32(rng.IntN(4)),
			host:     int32(100 + rng.IntN(2)),
			identity: uint8(rng.IntN(3)),
			us:       us,
			file:     file,
			line:     lines[file],
			policy:   int32(rng.IntN(len(windowPolicies)+1)) - 1,
		}
		// Bot 3 never has a limit: neither side measures it.
		if r.bot == 3 {
			r.policy = -1
		}
		rows = append(rows, r)
	}
	// Bots 0 and 1 arrive shuffled, as batches of several files and
	// goroutines do; bot 2 in order.
	var shuffled, ordered []windowRow
	for _, r := range rows {
		if r.bot <= 1 {
			shuffled = append(shuffled, r)
		} else {
			ordered = append(ordered, r)
		}
	}
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return append(shuffled, ordered...)
}

// windowStore returns a database whose table requests holds rows, with
// policies in force, and queries/measures.sql's macro window_measures. The
// caller closes it.
func windowStore(t *testing.T, rows []windowRow, policies []policy) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.OpenWith(ctx, "", store.Options{NoTables: true})
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string) {
		t.Helper()
		if err := s.Exec(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	exec(`CREATE TABLE requests (rid BIGINT, ts TIMESTAMPTZ, bot_id INTEGER, host_id INTEGER, identity_code UTINYINT,
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER, crawl_delay_ignored BOOLEAN)`)
	var values [][]any
	for i, r := range rows {
		v := []any{i, r.us, r.bot, r.host, r.identity, r.file, r.line, nil, nil, nil, false}
		if r.policy >= 0 {
			p := policies[r.policy]
			v[10] = p.delayIgnored
			if p.hasDelay {
				v[7] = p.crawlDelay
			}
			if p.hasRate {
				v[8], v[9] = p.rateN, p.rateS
			}
		}
		values = append(values, v)
	}
	exec(`CREATE TABLE staged (rid BIGINT, us BIGINT, bot_id INTEGER, host_id INTEGER, identity_code UTINYINT,
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER, crawl_delay_ignored BOOLEAN)`)
	if err := s.InsertValues(ctx, "staged", values); err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO requests SELECT rid, make_timestamp(us)::TIMESTAMPTZ, bot_id, host_id, identity_code,
		file_id, line, crawl_delay, rate_requests, rate_seconds, crawl_delay_ignored FROM staged`)
	exec(queries.SQL("measures.sql"))
	return s
}

// sqlWindowCounts returns what the summary (summary_counted.sql) counts with the window
// functions of queries/measures.sql (window_measures(false)) over rows: per
// key with a limit, "bot/host/identity" → {crawl-delay breaches,
// request-rate breaches, crawl_delay_unsupported}.
func sqlWindowCounts(t *testing.T, rows []windowRow) map[string][3]int64 {
	t.Helper()
	s := windowStore(t, rows, windowPolicies)
	defer s.Close()
	out := map[string][3]int64{}
	err := s.Each(context.Background(), `SELECT bot_id, host_id, identity_code,
	    count(*) FILTER (WHERE crawl_delay_breach), count(*) FILTER (WHERE request_rate_breach),
	    count(*) FILTER (WHERE crawl_delay_unsupported)
	FROM window_measures(false) GROUP BY ALL`, nil, func(v []any) error {
		out[fmt.Sprintf("%v/%v/%v", v[0], v[1], v[2])] = [3]int64{numeric(v[3]), numeric(v[4]), numeric(v[5])}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// streamWindowCounts returns what streamKeys counts of rows, fed in
// their order, in sqlWindowCounts's form.
func streamWindowCounts(t *testing.T, rows []windowRow) map[string][3]int64 {
	t.Helper()
	w := newStreamKeys(nil)
	for _, r := range rows {
		w.add(&streamRow{bot: r.bot, host: r.host, identity: r.identity, us: r.us, file: r.file, line: r.line, policy: r.policy, may: r.bot != 3})
	}
	if !w.windowsStreamed() {
		t.Fatal("streamKeys gave up")
	}
	out := map[string][3]int64{}
	for _, v := range w.rows(windowPolicies, nil) {
		out[fmt.Sprintf("%v/%v/%v", v[0], v[1], v[2])] = [3]int64{v[3].(int64), v[4].(int64), v[5].(int64)}
	}
	return out
}

// TestStreamWindowsEqualSQL holds the windows the judge measures while the
// logs stream (streamKeys) to queries/measures.sql's window functions,
// which the summary ran before and runs still when the judge gives up: the
// same keys, the same Crawl-delay and Request-rate breaches, on random
// requests with ties, µs gaps around a tiny Crawl-delay, overlapping
// Request-rate windows, and keys whose requests arrive in and out of order.
func TestStreamWindowsEqualSQL(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	var breaches [3]int64
	for round := range 30 {
		rows := randomWindowRows(rng, 50+rng.IntN(400))
		want := sqlWindowCounts(t, rows)
		got := streamWindowCounts(t, rows)
		if !reflect.DeepEqual(got, want) {
			var keys []string
			for k := range want {
				keys = append(keys, k)
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "  %s: stream %v, SQL %v\n", k, got[k], want[k])
			}
			t.Fatalf("round %d (%d requests): streamKeys and window_measures differ:\n%s", round, len(rows), b.String())
		}
		for _, c := range want {
			breaches[0] += c[0]
			breaches[1] += c[1]
			breaches[2] += c[2]
		}
	}
	// The rounds must have had something to agree on.
	if breaches[0] == 0 || breaches[1] == 0 || breaches[2] == 0 {
		t.Fatalf("the random requests breached %v: the test measured nothing", breaches)
	}
}

// TestStreamWindowsByAddressEqualSQL holds the breaches streamKeys counts
// per client address (measure.Windows.BreachesBy, for a lean audit's block
// list) to window_measures(true)'s per-request flags grouped by address, on
// TestStreamWindowsEqualSQL's random requests, each from one of a few
// addresses (or none logged: -1, which neither counts); and the per-key
// totals to those counted without addresses.
func TestStreamWindowsByAddressEqualSQL(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2026))
	ctx := context.Background()
	var breaches [2]int64
	for round := range 20 {
		rows := randomWindowRows(rng, 50+rng.IntN(400))
		addrs := make([][]any, len(rows))
		w := newStreamKeys(nil)
		for i, r := range rows {
			a := int32(rng.IntN(6)) - 1
			addrs[i] = []any{i, a}
			w.add(&streamRow{bot: r.bot, host: r.host, identity: r.identity, us: r.us, file: r.file, line: r.line, policy: r.policy, may: r.bot != 3, addr: a})
		}
		got := map[int32][2]int64{}
		if totals, plain := w.rows(windowPolicies, got), w.rows(windowPolicies, nil); !reflect.DeepEqual(totals, plain) {
			t.Fatalf("round %d: the totals with addresses %v differ from those without %v", round, totals, plain)
		}
		s := windowStore(t, rows, windowPolicies)
		if err := s.Exec(ctx, `CREATE TABLE addrs (rid BIGINT, addr INTEGER)`); err != nil {
			t.Fatal(err)
		}
		if err := s.InsertValues(ctx, "addrs", addrs); err != nil {
			t.Fatal(err)
		}
		want := map[int32][2]int64{}
		err := s.Each(ctx, `SELECT a.addr, count(*) FILTER (WHERE m.crawl_delay_breach), count(*) FILTER (WHERE m.request_rate_breach)
		FROM window_measures(true) m JOIN addrs a ON a.rid = m.rid
		WHERE a.addr <> -1
		GROUP BY a.addr
		HAVING count(*) FILTER (WHERE m.crawl_delay_breach OR m.request_rate_breach) > 0`, nil, func(v []any) error {
			want[int32(numeric(v[0]))] = [2]int64{numeric(v[1]), numeric(v[2])}
			return nil
		})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d (%d requests): breaches per address: stream %v, window_measures %v", round, len(rows), got, want)
		}
		for _, n := range want {
			breaches[0] += n[0]
			breaches[1] += n[1]
		}
	}
	if breaches[0] == 0 || breaches[1] == 0 {
		t.Fatalf("the random requests breached %v: the test measured nothing", breaches)
	}
}

// sqlWindowMeasures returns what queries/measures.sql's window_measures(true)
// says of each of rows, by row.
func sqlWindowMeasures(t *testing.T, rows []windowRow, policies []policy) []measure.Measure {
	t.Helper()
	s := windowStore(t, rows, policies)
	defer s.Close()
	out := make([]measure.Measure, len(rows))
	n := 0
	err := s.Each(context.Background(), `SELECT rid, gap_us, rate_count, crawl_delay_breach, request_rate_breach,
	    crawl_delay_unsupported FROM window_measures(true)`, nil, func(v []any) error {
		m := &out[numeric(v[0])]
		if v[1] != nil {
			m.GapUS, m.HasGap = numeric(v[1]), true
		}
		if v[2] != nil {
			m.RateCount, m.HasCount = numeric(v[2]), true
		}
		m.CrawlDelayBreach, _ = v[3].(bool)
		m.RequestRateBreach, _ = v[4].(bool)
		m.Unsupported, _ = v[5].(bool)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(rows) {
		t.Fatalf("window_measures gave %d rows of %d", n, len(rows))
	}
	return out
}

// streamWindowMeasures returns what measure.Windows says of each of rows
// as the judge's stream keeps them (streamKeys, fed in their order), by
// row; measured is false for the rows of keys the stream does not keep
// (no version limits their bot: bot 3).
func streamWindowMeasures(t *testing.T, rows []windowRow, policies []policy) (out []measure.Measure, measured []bool) {
	t.Helper()
	w := newStreamKeys(nil)
	row := map[[2]int64]int{} // file and line: the row
	for i, r := range rows {
		row[[2]int64{int64(r.file), r.line}] = i
		w.add(&streamRow{bot: r.bot, host: r.host, identity: r.identity, us: r.us, file: r.file, line: r.line, policy: r.policy, may: r.bot != 3})
	}
	if !w.windowsStreamed() {
		t.Fatal("streamKeys gave up")
	}
	limits := make([]measure.Limit, len(policies))
	for i, p := range policies {
		limits[i] = measure.Limit{CrawlDelay: p.crawlDelay, HasDelay: p.hasDelay, DelayIgnored: p.delayIgnored,
			RateN: p.rateN, RateS: p.rateS, HasRate: p.hasRate}
	}
	out, measured = make([]measure.Measure, len(rows)), make([]bool, len(rows))
	for i := range w.keys {
		k := &w.keys[i]
		k.windows.Each(limits, k.identity == uint8(verify.Spoofed), func(q measure.Request, m measure.Measure) {
			i := row[[2]int64{int64(q.File), q.Line}]
			out[i], measured[i] = m, true
		})
	}
	return out, measured
}

// compareWindowMeasures holds the stream's measure of every request of
// rows to window_measures's, and returns the stream's.
func compareWindowMeasures(t *testing.T, rows []windowRow, policies []policy) []measure.Measure {
	t.Helper()
	got, measured := streamWindowMeasures(t, rows, policies)
	want := sqlWindowMeasures(t, rows, policies)
	bad := 0
	for i, r := range rows {
		if !measured[i] {
			// Not kept: the SQL must find nothing to count either.
			w := want[i]
			if w.HasCount || w.CrawlDelayBreach || w.RequestRateBreach || w.Unsupported {
				t.Errorf("row %d %+v: not measured by the stream, SQL %+v", i, r, w)
				bad++
			}
		} else if got[i] != want[i] {
			t.Errorf("row %d %+v:\n  stream %+v\n  SQL    %+v", i, r, got[i], want[i])
			bad++
		}
		if bad > 10 {
			t.FailNow()
		}
	}
	return got
}

// The keys of TestWindowMeasuresCases: MJ12bot (bot 0) unverified on two
// hosts and spoofed on the first, DotBot (bot 1) verified.
var (
	caseMJ12     = windowRow{bot: 0, host: 100, identity: 0}
	caseMJ12b    = windowRow{bot: 0, host: 101, identity: 0}
	caseMJ12s    = windowRow{bot: 0, host: 100, identity: 2}
	caseDotBot   = windowRow{bot: 1, host: 100, identity: 1}
	secondMicros = int64(time.Second / time.Microsecond)
)

// at is a request of key k at us, file and line, under policy p (-1: none).
func (k windowRow) at(us int64, file int32, line int64, p int32) windowRow {
	k.us, k.file, k.line, k.policy = us, file, line, p
	return k
}

// TestWindowMeasuresCases holds the stream's measure of every request to
// window_measures's on cases worked out by hand from the definitions of
// docs/reading-the-audit.md (a gap shorter than the Crawl-delay breaches
// it; more than n requests in the last t seconds, every request of the
// same instant included, breach Request-rate n/t), and checks the
// breaches of each key.
func TestWindowMeasuresCases(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	sec := secondMicros
	type want struct{ delay, rate, unsupported int64 }
	key := func(r windowRow) string { return fmt.Sprintf("%d/%d/%d", r.bot, r.host, r.identity) }
	for _, tc := range []struct {
		name     string
		policies []policy
		rows     []windowRow
		want     map[string]want
	}{
		{"gaps under and at the delay", []policy{{hasDelay: true, crawlDelay: 10}}, []windowRow{
			caseMJ12.at(t0, 1, 1, 0),
			caseMJ12.at(t0+10*sec, 1, 2, 0),   // 10 s: not under
			caseMJ12.at(t0+20*sec-1, 1, 3, 0), // 1 µs under
			caseMJ12.at(t0+25*sec, 1, 4, -1),  // no delay in force
		}, map[string]want{key(caseMJ12): {delay: 1}}},
		{"ties at one instant, in file and line order", []policy{{hasDelay: true, crawlDelay: 5}}, []windowRow{
			caseMJ12.at(t0, 2, 7, 0),
			caseMJ12.at(t0, 1, 9, 0), // the first of the instant: no gap
			caseMJ12.at(t0, 1, 3, 0),
		}, map[string]want{key(caseMJ12): {delay: 2}}},
		{"ties with different delays", []policy{{hasDelay: true, crawlDelay: 1}, {hasDelay: true, crawlDelay: 0.5}}, []windowRow{
			caseMJ12.at(t0, 1, 1, 0),
			caseMJ12.at(t0+30*sec, 2, 1, 1),  // after file 1's request of the instant: gap 0, a breach
			caseMJ12.at(t0+30*sec, 1, 5, -1), // gap 30 s, no delay
		}, map[string]want{key(caseMJ12): {delay: 1}}},
		{"keys apart: host and identity", []policy{{hasDelay: true, crawlDelay: 10}}, []windowRow{
			caseMJ12.at(t0, 1, 1, 0),
			caseMJ12b.at(t0+sec, 1, 2, 0),
			caseMJ12s.at(t0+2*sec, 1, 3, 0),
			caseMJ12.at(t0+3*sec, 1, 4, 0),
		}, map[string]want{key(caseMJ12): {delay: 1}}},
		{"a crawler that ignores Crawl-delay, and its impostor", []policy{
			{hasDelay: true, crawlDelay: 10, delayIgnored: true}, {hasDelay: true, crawlDelay: 10}}, []windowRow{
			caseMJ12.at(t0, 1, 1, 0),
			caseMJ12.at(t0+sec, 1, 2, 0),   // unsupported
			caseMJ12.at(t0+2*sec, 1, 3, 1), // supported then: a breach
			caseMJ12s.at(t0, 1, 4, 0),
			caseMJ12s.at(t0+sec, 1, 5, 0), // spoofed: held to it, a breach
		}, map[string]want{key(caseMJ12): {delay: 1, unsupported: 1}, key(caseMJ12s): {delay: 1}}},
		{"request-rate window (ts - t, ts]", []policy{{hasRate: true, rateN: 2, rateS: 10}}, []windowRow{
			caseDotBot.at(t0, 1, 1, 0),
			caseDotBot.at(t0+5*sec, 1, 2, 0),
			caseDotBot.at(t0+10*sec, 1, 3, 0),   // t0 is out: 2
			caseDotBot.at(t0+10*sec+1, 1, 4, 0), // 3: a breach
		}, map[string]want{key(caseDotBot): {rate: 1}}},
		{"request-rate: every request of the instant counts", []policy{{hasRate: true, rateN: 2, rateS: 60}}, []windowRow{
			caseDotBot.at(t0, 3, 1, 0),
			caseDotBot.at(t0, 1, 1, 0),
			caseDotBot.at(t0, 2, 1, 0), // each counts 3
		}, map[string]want{key(caseDotBot): {rate: 3}}},
		{"windowed request-rate: requests without one count, are not counted", []policy{
			{hasRate: true, rateN: 2, rateS: 60}, {hasRate: true, rateN: 10, rateS: 60}}, []windowRow{
			caseDotBot.at(t0, 1, 1, -1),
			caseDotBot.at(t0+sec, 1, 2, -1),
			caseDotBot.at(t0+2*sec, 1, 3, 0), // 3 in the window
			caseDotBot.at(t0+3*sec, 1, 4, 1),
		}, map[string]want{key(caseDotBot): {rate: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := compareWindowMeasures(t, tc.rows, tc.policies)
			got := map[string]want{}
			for i, r := range tc.rows {
				w := got[key(r)]
				if m[i].CrawlDelayBreach {
					w.delay++
				}
				if m[i].RequestRateBreach {
					w.rate++
				}
				if m[i].Unsupported {
					w.unsupported++
				}
				if w != (want{}) {
					got[key(r)] = w
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("breaches %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWindowMeasuresRandom holds the stream's measure of every request
// (gap, Request-rate count, breaches) to window_measures's on the random
// requests of TestStreamWindowsEqualSQL, whose counts alone that test
// compares.
func TestWindowMeasuresRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 9309))
	var breaches [3]int
	for range 6 {
		rows := randomWindowRows(rng, 300+rng.IntN(1200))
		for _, m := range compareWindowMeasures(t, rows, windowPolicies) {
			for i, b := range []bool{m.CrawlDelayBreach, m.RequestRateBreach, m.Unsupported} {
				if b {
					breaches[i]++
				}
			}
		}
		if t.Failed() {
			return
		}
	}
	if breaches[0] == 0 || breaches[1] == 0 || breaches[2] == 0 {
		t.Fatalf("the random requests breached %v: the test measured nothing", breaches)
	}
}

// TestAvailabilityFilter: which disallowed requests a period of robots.txt
// takes out of the breaches, as availability.sql's table "during" does.
// Periods of host 1 and operator -1: unreachable from 100 to 200 µs,
// unavailable from 300 to 400, unreachable from 500 on (open); 12 h is
// 43,200,000,000 µs.
func TestAvailabilityFilter(t *testing.T) {
	const h12 = 12 * int64(time.Hour/time.Microsecond)
	f := &availabilityFilter{
		ops: map[int64]botOp{7: {opKey: -1}, 8: {opKey: -1, userTriggered: true}, 9: {opKey: 9}},
		periods: map[[2]int64][]measure.Period{{1, -1}: {
			{From: 100, To: 200, Kind: measure.StateUnreachable},
			{From: 300, To: 400, Kind: measure.StateUnavailable},
			{From: 500, Open: true, Kind: measure.StateUnreachable},
		}},
	}
	for _, tc := range []struct {
		name                string
		host, bot, identity int64
		us                  int64
		google              bool
		want                bool
	}{
		{"before any period", 1, 7, 0, 99, false, true},
		{"an unreachable period's start", 1, 7, 0, 100, false, false},
		{"inside it", 1, 7, 1, 150, false, false},
		{"its end (exclusive)", 1, 7, 0, 200, false, true},
		{"between periods", 1, 7, 0, 250, false, true},
		{"unavailable: allowed", 1, 7, 0, 300, false, false},
		{"after it", 1, 7, 0, 400, false, true},
		{"an open period", 1, 7, 0, 500 + 2*h12, false, false},
		{"google: its first 12 hours", 1, 7, 0, 500 + h12 - 1, true, false},
		{"google: after them, the last copy", 1, 7, 0, 500 + h12, true, true},
		{"google: unavailable all along", 1, 7, 0, 350, true, false},
		{"spoofed: not the operator's", 1, 7, 2, 150, false, true},
		{"user-triggered bot", 1, 8, 0, 150, false, true},
		{"another operator", 1, 9, 0, 150, false, true},
		{"another host", 2, 7, 0, 150, false, true},
		{"a bot not in bots", 1, 99, 0, 150, false, true},
	} {
		f.google = tc.google
		got := true
		if still := f.breaches(tc.host, tc.bot, tc.identity); still != nil {
			got = still(tc.us)
		}
		if got != tc.want {
			t.Errorf("%s: still a breach %v, want %v", tc.name, got, tc.want)
		}
	}
	var none *availabilityFilter
	if none.breaches(1, 7, 0) != nil {
		t.Error("no filter filters")
	}
}

// availBots are the bots of TestStreamAvailabilityRandom, as the table
// bots holds them: two crawlers of one operator (which share its
// robots.txt), a user-triggered fetcher (to which robots.txt does not
// apply), a bot without an operator (its own), and YandexBot, which asks
// for robots.txt rarely.
var availBots = []struct {
	name, operator string
	userTriggered  bool
}{
	{"Googlebot", "Google", false},
	{"Googlebot-Image", "Google", false},
	{"bingbot", "Microsoft", false},
	{"ChatGPT-User", "OpenAI", true},
	{"curl", "", false},
	{"YandexBot", "Yandex", false},
}

// availRow is one request of TestStreamAvailabilityRandom.
type availRow struct {
	us       int64
	host     int // 0 or 1
	bot      int // in availBots
	identity uint8
	file     int32
	line     int64
	fetch    bool
	status   int32 // 0: not logged
	verdict  string
}

// randomAvailRows returns requests over 70 days to two hosts, with
// /robots.txt answered with every kind of status (2xx, 5xx, 429, 404, 410,
// 3xx, none), each at its own second per host and operator, so that no two
// periods of one begin at one instant (where the SQL's ASOF join may take
// either, and the stream leaves them to it). YandexBot's few answers open
// periods that last their 30 days, or past the logs' end.
func randomAvailRows(seed uint64) []availRow {
	rng := rand.New(rand.NewPCG(seed, 12))
	t0 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	sec := secondMicros
	day := 24 * 3600 * sec
	statuses := []int32{200, 200, 200, 503, 429, 404, 410, 301, 0, 500}
	verdicts := []string{"allowed", "allowed", VerdictDisallowed, VerdictInGrace, VerdictUnaudited}
	yandex := len(availBots) - 1
	lines := map[int32]int64{}
	var rows []availRow
	for _, f := range []struct {
		host   int
		day    int64
		status int32
	}{{0, 2, 503}, {0, 40, 200}, {0, 50, 503}, {1, 5, 429}, {1, 45, 404}, {1, 47, 500}} {
		lines[9]++
		rows = append(rows, availRow{us: t0 + f.day*day, host: f.host, bot: yandex, file: 9, line: lines[9], fetch: true, status: f.status, verdict: "allowed"})
	}
	used := map[string]bool{}
	for range 3000 {
		r := availRow{host: rng.IntN(2), bot: rng.IntN(len(availBots)), identity: uint8(rng.IntN(3)), file: int32(rng.IntN(3))}
		r.us = t0 + int64(rng.IntN(70*24*3600))*sec
		if rng.IntN(8) == 0 && r.bot != yandex {
			r.fetch = true
			r.status = statuses[rng.IntN(len(statuses))]
			op := cmp.Or(availBots[r.bot].operator, availBots[r.bot].name)
			slot := fmt.Sprint(r.host, op, r.us)
			if used[slot] {
				continue
			}
			used[slot] = true
			r.verdict = "allowed"
		} else {
			r.status = 200
			r.verdict = verdicts[rng.IntN(len(verdicts))]
			if availBots[r.bot].userTriggered && r.verdict == VerdictDisallowed {
				r.verdict = VerdictUserTriggered
			}
		}
		lines[r.file]++
		r.line = lines[r.file]
		rows = append(rows, r)
	}
	return rows
}

// availabilityTables returns the rows of robots_status, during and
// availability, in order, for comparison.
func availabilityTables(t *testing.T, s *store.Store) (periods, during, changed []string) {
	t.Helper()
	for _, q := range []struct {
		into  *[]string
		query string
	}{
		{&periods, `SELECT period_id, host_id, operator, op_key, kind, epoch_us(from_ts), epoch_us(to_ts), status, bot_id, file_id, line
			FROM robots_status ORDER BY period_id`},
		{&during, `SELECT rid, period_id, verdict_id, unreachable FROM during ORDER BY rid`},
		{&changed, `SELECT rid, verdict_id, unreachable FROM availability ORDER BY rid`},
	} {
		err := s.Each(context.Background(), q.query, nil, func(v []any) error {
			*q.into = append(*q.into, fmt.Sprint(v...))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return periods, during, changed
}

// TestStreamAvailabilityRandom holds the robots.txt availability the judge
// makes from its stream (streamAvail, with package measure) to
// queries/availability.sql's on random requests and responses (RFC 9309
// §2.3.1.3-4; under --spec google, Google's 12 hours): the same periods,
// the same requests in them and the same verdicts changed. Fed in time
// order the stream must make the tables; fed in the random order of the
// rows it may leave them to the SQL, and must equal it when it does not.
func TestStreamAvailabilityRandom(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(1); seed <= 4; seed++ {
		for _, google := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed %d google %t", seed, google), func(t *testing.T) {
				rows := randomAvailRows(seed)
				s, err := store.OpenWith(ctx, "", store.Options{NoTables: true})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				exec := func(q string) {
					t.Helper()
					if err := s.Exec(ctx, q); err != nil {
						t.Fatalf("%v\n%.500s", err, q)
					}
				}
				// dict: the verdicts, the hosts, the bots.
				names := []string{"allowed", VerdictDisallowed, VerdictInGrace, VerdictUnaudited, VerdictUserTriggered,
					VerdictUnreachable, VerdictUnavailable, "a.example", "b.example"}
				id := map[string]int32{}
				var dict, bots [][]any
				for _, n := range names {
					id[n] = int32(len(dict))
					dict = append(dict, []any{len(dict), n})
				}
				for _, b := range availBots {
					id[b.name] = int32(len(dict))
					bots = append(bots, []any{b.name, b.operator, "", b.userTriggered, len(dict)})
					dict = append(dict, []any{len(dict), b.name})
				}
				hostID := func(h int) int32 { return id[names[7+h]] }
				exec(fmt.Sprintf("SET VARIABLE spec_google = %t", google))
				exec(`CREATE TABLE dict (id INTEGER, value VARCHAR);
CREATE TABLE bots (bot VARCHAR, operator VARCHAR, purpose VARCHAR, user_triggered BOOLEAN, bot_id INTEGER);
CREATE TABLE availability (rid BIGINT, verdict_id INTEGER, unreachable BOOLEAN);
CREATE TABLE staged (rid BIGINT, us BIGINT, host_id INTEGER, bot_id INTEGER, file_id INTEGER, line BIGINT,
	status INTEGER, robots_fetch BOOLEAN, identity_code UTINYINT, verdict_id INTEGER)`)
				var staged [][]any
				for i, r := range rows {
					var status any
					if r.status != 0 {
						status = r.status
					}
					staged = append(staged, []any{i, r.us, hostID(r.host), id[availBots[r.bot].name], r.file, r.line, status, r.fetch, r.identity, id[r.verdict]})
				}
				for _, b := range []struct {
					table string
					rows  [][]any
				}{{"dict", dict}, {"bots", bots}, {"staged", staged}} {
					if err := s.InsertValues(ctx, b.table, b.rows); err != nil {
						t.Fatal(err)
					}
				}
				exec(`CREATE TABLE requests AS SELECT rid, make_timestamp(us)::TIMESTAMPTZ AS ts, host_id, bot_id, file_id, line,
	status, robots_fetch, identity_code, verdict_id FROM staged`)
				exec(queries.SQL("bot_ops.sql"))
				exec(queries.SQL("availability.sql"))
				wantP, wantD, wantA := availabilityTables(t, s)
				if len(wantP) == 0 || len(wantA) == 0 {
					t.Fatalf("%d periods, %d verdicts changed: the case tests nothing", len(wantP), len(wantA))
				}

				inTime := make([]int, len(rows))
				for i := range inTime {
					inTime[i] = i
				}
				slices.SortStableFunc(inTime, func(a, b int) int { return cmp.Compare(rows[a].us, rows[b].us) })
				asGenerated := make([]int, len(rows))
				for i := range asGenerated {
					asGenerated[i] = i
				}
				for _, order := range []struct {
					name string
					rows []int
					must bool
				}{{"in time order", inTime, true}, {"as generated", asGenerated, false}} {
					var a streamAvail
					for _, i := range order.rows {
						r := rows[i]
						a.add(int64(i), hostID(r.host), id[availBots[r.bot].name], verify.Identity(r.identity), r.us, r.file, r.line,
							r.fetch, r.status, r.status != 0, 0, streamVerdict(r.verdict), -1, -1)
					}
					ok, err := a.store(ctx, s, google, id[VerdictUnreachable], id[VerdictUnavailable], nil, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						if order.must {
							t.Errorf("%s: the stream left the availability to the SQL", order.name)
						}
						continue
					}
					gotP, gotD, gotA := availabilityTables(t, s)
					for _, c := range []struct {
						table     string
						got, want []string
					}{{"robots_status", gotP, wantP}, {"during", gotD, wantD}, {"availability", gotA, wantA}} {
						if !slices.Equal(c.got, c.want) {
							i := 0
							for i < min(len(c.got), len(c.want)) && c.got[i] == c.want[i] {
								i++
							}
							t.Errorf("%s: %s: %d rows streamed, %d by the SQL; the first that differ, at %d: streamed %q, SQL %q", order.name, c.table,
								len(c.got), len(c.want), i, rowAt(c.got, i), rowAt(c.want, i))
						}
					}
				}
			})
		}
	}
}

// rowAt returns rows[i], or "" past its end.
func rowAt(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return ""
}

// TestStreamChangesEqualSQL holds what the judge gathers of the robots.txt
// changes while the logs stream (streamChanges, streamedMarks) to the SQL
// it replaces (queries/changes_agents.sql and changes.sql), on random
// requests of a few bots, identities and User-Agents (some stored as dict
// entries, some inline, some not at all) to two hosts with three changes,
// around and inside their windows, with /robots.txt requests and requests
// disallowed by rules the changes added or not.
func TestStreamChangesEqualSQL(t *testing.T) {
	const day = int64(24 * time.Hour / time.Microsecond)
	base := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	// Host 100 changes on days 10 and 15 (the first window ends at the
	// second change), host 101 on day 20.
	var list []streamChange
	for hi, days := range [][]int64{{0, 10, 15}, {0, 20}} {
		var starts []time.Time
		for _, d := range days {
			starts = append(starts, time.UnixMicro(base+d*day))
		}
		for _, vc := range measure.VersionChanges(starts) {
			list = append(list, streamChange{hi: hi, VersionChange: vc, at: vc.At.UnixMicro(), until: vc.Until.UnixMicro()})
		}
	}
	hostChanges := map[int32][]int32{100: {0, 1}, 101: {2}}
	// dict: bots 0-3, rules 10-13, User-Agents 20-22.
	dict := make([]string, 30)
	for i := range 4 {
		dict[i] = fmt.Sprintf("bot%d", i)
	}
	rules := []string{"Disallow: /a", "Disallow: /b", "Disallow: /c", "Disallow: /d"}
	for i, r := range rules {
		dict[10+i] = r
	}
	uas := []*uaState{
		{ua: "Mozilla/5.0 (compatible; B)", id: 20},
		{ua: "Mozilla/5.0 (compatible; A)", id: 21},
		{ua: "Mozilla/5.0 (compatible; C) inline", id: -1, inline: true},
		{ua: "Mozilla/5.0 (compatible; 0) not stored", id: -1},
	}
	dict[20], dict[21] = uas[0].ua, uas[1].ua
	// The added Disallow rules of a change for a bot and identity.
	added := func(change int, bot, identity int64) []string {
		var out []string
		for i, r := range rules {
			if (change+int(bot)+int(identity)+i)%3 != 0 {
				out = append(out, r)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(15, 12))
	var checked, breaking, obeying int
	for round := range 20 {
		s := newStreamKeys(nil)
		s.changes.list = list
		for _, u := range uas {
			u.streamKey = 0 // the key a User-Agent's state remembers is its judge's
		}
		type row struct {
			host, bot int32
			identity  uint8
			us        int64
			ua        int
			fetch     bool
			verdict   string
			rule      int32
		}
		var rows []row
		for range 100 + rng.IntN(300) {
			r := row{host: int32(100 + rng.IntN(2)), bot: int32(rng.IntN(4)), identity: uint8(rng.IntN(3)),
				us: base - 25*day + rng.Int64N(80*day), ua: rng.IntN(len(uas)), fetch: rng.IntN(8) == 0, verdict: "allowed", rule: -1}
			if rng.IntN(3) == 0 {
				// At a change, the end of its window or of the 30 days
				// around it, or a µs either side.
				ch := list[rng.IntN(len(list))]
				edges := []int64{ch.at, ch.until, ch.From, ch.To}
				r.us = edges[rng.IntN(len(edges))] + int64(rng.IntN(3)-1)
			}
			switch v := rng.IntN(6); {
			case v == 0:
				r.verdict = VerdictInGrace
			case v <= 2:
				r.verdict = VerdictDisallowed
			}
			if r.verdict != "allowed" || rng.IntN(3) == 0 {
				r.rule = int32(10 + rng.IntN(len(rules)))
			}
			rows = append(rows, r)
			breakRule := int32(-1)
			if r.verdict != "allowed" {
				breakRule = r.rule
			}
			s.add(&streamRow{bot: r.bot, host: r.host, identity: r.identity, us: r.us, ua: uas[r.ua], fetch: r.fetch,
				breakRule: breakRule, changes: hostChanges[r.host]})
		}
		streamed := s.finishChanges(dict)
		if streamed == nil {
			t.Fatal("streamChanges gave up")
		}
		type key struct {
			change        int
			bot, identity int64
		}
		got := map[key]string{}
		gotMarks := map[key]measure.Marks{}
		for i := range streamed {
			sc := &streamed[i]
			c := map[[2]int]int{{0, 1}: 0, {0, 2}: 1, {1, 1}: 2}[[2]int{sc.hi, sc.k}]
			k := key{c, sc.botID, sc.identity}
			got[k] = sc.bot + "|" + sc.ua
			if sc.inWindow {
				gotMarks[k] = streamedMarks(sc, added(c, sc.botID, sc.identity), nil)
			}
		}

		ctx := context.Background()
		st, err := store.OpenWith(ctx, "", store.Options{NoTables: true})
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string) {
			t.Helper()
			if err := st.Exec(ctx, q); err != nil {
				t.Fatalf("%v\n%s", err, q)
			}
		}
		exec(`CREATE TABLE dict (id INTEGER, value VARCHAR)`)
		var dictRows [][]any
		for id, v := range dict {
			if v != "" {
				dictRows = append(dictRows, []any{id, v})
			}
		}
		dictRows = append(dictRows, []any{30, VerdictDisallowed}, []any{31, VerdictInGrace}, []any{32, "allowed"})
		verdictID := map[string]int{VerdictDisallowed: 30, VerdictInGrace: 31, "allowed": 32}
		if err := st.InsertValues(ctx, "dict", dictRows); err != nil {
			t.Fatal(err)
		}
		exec(`CREATE TABLE staged (host_id INTEGER, us BIGINT, bot_id INTEGER, identity_code UTINYINT,
			user_agent_id INTEGER, user_agent VARCHAR, robots_fetch BOOLEAN, verdict_id INTEGER, rule_id INTEGER)`)
		var staged [][]any
		for _, r := range rows {
			u := uas[r.ua]
			var uaID, uaStr, rule any
			if u.id >= 0 {
				uaID = u.id
			} else if u.inline {
				uaStr = u.ua
			}
			if r.rule >= 0 {
				rule = r.rule
			}
			staged = append(staged, []any{r.host, r.us, r.bot, r.identity, uaID, uaStr, r.fetch, verdictID[r.verdict], rule})
		}
		if err := st.InsertValues(ctx, "staged", staged); err != nil {
			t.Fatal(err)
		}
		exec(`CREATE TABLE requests AS SELECT host_id, make_timestamp(us)::TIMESTAMPTZ AS ts, bot_id, identity_code,
			user_agent_id, user_agent, robots_fetch, verdict_id, rule_id FROM staged`)
		exec(`CREATE TEMP TABLE version_changes (change_id INTEGER, host_id INTEGER, starts TIMESTAMPTZ, ends TIMESTAMPTZ)`)
		var vc [][]any
		for c, ch := range list {
			vc = append(vc, []any{c, 100 + ch.hi, time.UnixMicro(ch.at).UTC(), time.UnixMicro(ch.until).UTC()})
		}
		if err := st.InsertValues(ctx, "version_changes", vc); err != nil {
			t.Fatal(err)
		}
		want := map[key]string{}
		var cr [][]any
		err = st.Each(ctx, queries.SQL("changes_agents.sql"), nil, func(v []any) error {
			k := key{int(numeric(v[0])), numeric(v[1]), numeric(v[2])}
			ua, _ := v[4].(string)
			want[k] = v[5].(string) + "|" + ua
			for _, r := range added(k.change, k.bot, k.identity) {
				cr = append(cr, []any{k.change, k.bot, k.identity, r})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: the bots active around the changes, streamed:\n%v\nSQL:\n%v", round, got, want)
		}
		exec(`CREATE TEMP TABLE change_rules (change_id INTEGER, bot_id INTEGER, identity_code UTINYINT, rule VARCHAR)`)
		if err := st.InsertValues(ctx, "change_rules", cr); err != nil {
			t.Fatal(err)
		}
		wantMarks := map[key]measure.Marks{}
		err = st.Each(ctx, queries.SQL("changes.sql"), nil, func(v []any) error {
			k := key{int(numeric(v[0])), numeric(v[1]), numeric(v[2])}
			us := func(x any) (bool, int64) {
				if t, ok := x.(time.Time); ok {
					return true, t.UnixMicro()
				}
				return false, 0
			}
			var m measure.Marks
			m.HasFetch, m.FirstFetch = us(v[3])
			_, m.LastBreak = us(v[4])
			m.Breaking = numeric(v[5])
			m.HasObeying, m.FirstObeying = us(v[6])
			wantMarks[k] = m
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if !reflect.DeepEqual(gotMarks, wantMarks) {
			t.Fatalf("round %d: the reactions, streamed:\n%+v\nSQL:\n%+v", round, gotMarks, wantMarks)
		}
		for _, m := range wantMarks {
			checked++
			if m.Breaking > 0 {
				breaking++
			}
			if m.HasObeying {
				obeying++
			}
		}
	}
	if checked == 0 || breaking == 0 || obeying == 0 {
		t.Fatalf("%d reactions, %d with breaches, %d obeying: the test measured nothing", checked, breaking, obeying)
	}
}

// TestAuditAvailabilityStreamedOrNot holds the robots.txt availability the
// judge computes from its stream (streamAvail, with package measure) to
// queries/availability.sql's: the same tables robots_status, during and
// availability, and the same summary, on generated months with 503 and 404
// outages (one host and three, both files interleaved, with --spec google).
func TestAuditAvailabilityStreamedOrNot(t *testing.T) {
	one := genConfig()
	three := genConfig()
	three.Hosts = []string{"a.example", "b.example", "c.example"}
	three.Seed = 11
	// By names, files and lines: dict ids and row ids differ from run to
	// run (the parsing goroutines hand over batches in any order), and the
	// join on rid checks that each streamed row names the right request.
	tables := []string{
		`SELECT h.value, p.operator, p.kind, p.from_ts, p.to_ts, p.status, b.value, f.value, p.line
FROM robots_status p JOIN dict h ON h.id = p.host_id JOIN dict b ON b.id = p.bot_id JOIN dict f ON f.id = p.file_id ORDER BY ALL`,
		`SELECT f.value, r.line, r.ts, h.value, p.operator, p.from_ts, v.value, d.unreachable
FROM during d JOIN requests r USING (rid) JOIN robots_status p USING (period_id)
JOIN dict f ON f.id = r.file_id JOIN dict h ON h.id = p.host_id LEFT JOIN dict v ON v.id = d.verdict_id ORDER BY ALL`,
		`SELECT f.value, r.line, r.ts, v.value, a.unreachable
FROM availability a JOIN requests r USING (rid) JOIN dict f ON f.id = r.file_id JOIN dict v ON v.id = a.verdict_id ORDER BY ALL`,
		`SELECT count(*) FROM during`,
		`SELECT count(*) FROM availability`,
	}
	for _, tc := range []struct {
		name    string
		cfg     loggen.Config
		format  string
		profile robots.Profile
	}{
		{"one host", one, "combined", robots.RFC9309},
		{"one host, --spec google", one, "combined", robots.Google},
		{"three hosts", three, "jsonl", robots.RFC9309},
	} {
		t.Run(tc.name, func(t *testing.T) {
			robotsDir, log := writeMonth(t, t.TempDir(), tc.cfg, tc.format, false)
			audit := func(logs []string) (string, []string) {
				t.Helper()
				res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour, Profile: tc.profile}, logs)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Close()
				summary, err := json.Marshal(res.Summary)
				if err != nil {
					t.Fatal(err)
				}
				var rows []string
				for _, q := range tables {
					err := res.store.Each(context.Background(), q, nil, func(v []any) error {
						rows = append(rows, fmt.Sprint(v...))
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				return string(summary), rows
			}
			for n, logs := range [][]string{{log}, interleave(t, log)} {
				streamed := false
				availStreamed = func() { streamed = true }
				summary, rows := audit(logs)
				availStreamed = nil
				// One log in time order keeps every request a period may
				// cover; two interleaved ones may leave it to the SQL.
				if n == 0 && !streamed {
					t.Errorf("%v: the availability was not streamed", logs)
				}
				var sqlSummary string
				var sqlRows []string
				func() {
					defer func(n int) { maxStreamAvail = n }(maxStreamAvail)
					maxStreamAvail = 0
					sqlSummary, sqlRows = audit(logs)
				}()
				if summary != sqlSummary {
					t.Errorf("%v: the summaries differ", logs)
				}
				if !slices.Equal(rows, sqlRows) {
					i := slices.IndexFunc(rows, func(r string) bool { return !slices.Contains(sqlRows, r) })
					t.Errorf("%v: %d rows streamed, %d by the SQL; streamed row %d not in the SQL's: %s (SQL's: %s)", logs, len(rows), len(sqlRows),
						i, rows[max(i, 0)], sqlRows[max(i, 0)])
				}
				var affected int64
				var s report.Summary
				if err := json.Unmarshal([]byte(summary), &s); err != nil {
					t.Fatal(err)
				}
				for _, p := range s.RobotsStatus {
					affected += p.Affected
				}
				if len(s.RobotsStatus) == 0 || affected == 0 {
					t.Errorf("%v: %d periods, %d verdicts changed: the month measured nothing", logs, len(s.RobotsStatus), affected)
				}
			}
		})
	}
}

// streamVerdict is the judge's verdict index of a verdict name, as the
// stream receives it.
func streamVerdict(v string) uint8 {
	switch v {
	case VerdictDisallowed:
		return vDisallowed
	case VerdictInGrace:
		return vInGrace
	}
	return vAllowed
}
