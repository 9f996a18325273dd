package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// measureRow is one request of the tests of measure.Windows: the columns
// of the view requests that queries/measures.sql reads.
type measureRow struct {
	key        botKey
	ts         int64 // Unix µs
	file, line int64
	delay      float64 // 0: NULL
	hasDelay   bool
	ignored    bool // the crawler's operator says it ignores Crawl-delay
	rateN      int32
	rateS      int32 // 0: no Request-rate
}

// keyRowsOf returns the rows of key among rows, as keyRows, and their
// indices in rows.
func keyRowsOf(rows []measureRow, key botKey) (*keyRows, []int) {
	k := &keyRows{}
	var at []int
	for i, r := range rows {
		if r.key != key {
			continue
		}
		at = append(at, i)
		k.ts = append(k.ts, r.ts)
		k.order = append(k.order, r.file)
		k.line = append(k.line, r.line)
		k.verdict = append(k.verdict, "allowed")
		k.robotsFetch = append(k.robotsFetch, false)
		k.visitBreach = append(k.visitBreach, false)
		k.crawlDelay = append(k.crawlDelay, r.delay)
		k.hasDelay = append(k.hasDelay, r.hasDelay)
		k.delayIgnored = append(k.delayIgnored, r.ignored)
		k.rateN = append(k.rateN, r.rateN)
		k.rateS = append(k.rateS, r.rateS)
		k.hasRate = append(k.hasRate, r.rateS > 0)
		k.clientIP = append(k.clientIP, "")
		k.hasIP = append(k.hasIP, false)
		k.operator = append(k.operator, "")
		k.userTriggered = append(k.userTriggered, false)
		k.userAgent = append(k.userAgent, "")
		k.hasUA = append(k.hasUA, false)
		k.rule = append(k.rule, "")
		k.hasRule = append(k.hasRule, false)
	}
	return k, at
}

// goMeasures returns measure.Windows of every row, by row.
func goMeasures(rows []measureRow) []measure.Measure {
	out := make([]measure.Measure, len(rows))
	seen := map[botKey]bool{}
	for _, r := range rows {
		if seen[r.key] {
			continue
		}
		seen[r.key] = true
		k, at := keyRowsOf(rows, r.key)
		w, limits := keyWindows(k)
		w.Each(limits, r.key.Identity == 2, func(q measure.Request, m measure.Measure) {
			out[at[q.Limit]] = m // a request's limit is its row
		})
	}
	return out
}

// sqlMeasures returns what queries/measures.sql's window_measures(true)
// says of every row, by row, run by DuckDB on a table requests that holds
// the rows.
func sqlMeasures(t *testing.T, rows []measureRow) []measure.Measure {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // settings are the connection's
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	exec("SET TimeZone = 'UTC'")
	exec(`CREATE TABLE requests (rid BIGINT, ts TIMESTAMPTZ, bot_id INTEGER, host_id INTEGER, identity_code UTINYINT,
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER, crawl_delay_ignored BOOLEAN)`)
	ids := map[string]int{}
	id := func(s string) int {
		if _, ok := ids[s]; !ok {
			ids[s] = len(ids)
		}
		return ids[s]
	}
	var b strings.Builder
	for i, r := range rows {
		if i%500 == 0 {
			if b.Len() > 0 {
				exec(b.String())
			}
			b.Reset()
			b.WriteString("INSERT INTO requests VALUES ")
		} else {
			b.WriteString(", ")
		}
		delay, rateN, rateS := "NULL", "NULL", "NULL"
		if r.hasDelay {
			delay = fmt.Sprintf("%v::DOUBLE", r.delay)
		}
		if r.rateS > 0 {
			rateN, rateS = fmt.Sprint(r.rateN), fmt.Sprint(r.rateS)
		}
		fmt.Fprintf(&b, "(%d, make_timestamp(%d::BIGINT)::TIMESTAMPTZ, %d, %d, %d, %d, %d, %s, %s, %s, %t)",
			i, r.ts, id(r.key.Bot), id(r.key.Host), r.key.Identity, r.file, r.line, delay, rateN, rateS, r.ignored)
	}
	exec(b.String())
	exec(queries.SQL("measures.sql"))
	out := make([]measure.Measure, len(rows))
	q, err := db.QueryContext(ctx, `SELECT rid, gap_us, rate_count, crawl_delay_breach, request_rate_breach, crawl_delay_unsupported FROM window_measures(true)`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	n := 0
	for q.Next() {
		var rid int64
		var gap, count sql.NullInt64
		var m measure.Measure
		if err := q.Scan(&rid, &gap, &count, &m.CrawlDelayBreach, &m.RequestRateBreach, &m.Unsupported); err != nil {
			t.Fatal(err)
		}
		m.GapUS, m.HasGap = gap.Int64, gap.Valid
		m.RateCount, m.HasCount = count.Int64, count.Valid
		out[rid] = m
		n++
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(rows) {
		t.Fatalf("window_measures gave %d rows of %d", n, len(rows))
	}
	return out
}

// compareMeasures checks that Go and SQL measure rows alike.
func compareMeasures(t *testing.T, rows []measureRow) {
	t.Helper()
	got, want := goMeasures(rows), sqlMeasures(t, rows)
	bad := 0
	for i := range rows {
		if got[i] != want[i] {
			t.Errorf("row %d %+v:\n  Go  %+v\n  SQL %+v", i, rows[i], got[i], want[i])
			if bad++; bad > 10 {
				t.FailNow()
			}
		}
	}
}

var (
	bot1   = botKey{Bot: "MJ12bot", Host: "a.example", Identity: 0}
	bot1b  = botKey{Bot: "MJ12bot", Host: "b.example", Identity: 0}
	bot1s  = botKey{Bot: "MJ12bot", Host: "a.example", Identity: 2}
	dotbot = botKey{Bot: "DotBot", Host: "a.example", Identity: 1}
)

// sec is a second in µs.
const sec = int64(time.Second / time.Microsecond)

// TestWindowMeasuresCases checks measure.Windows on cases worked out by
// hand, and each against queries/measures.sql.
func TestWindowMeasuresCases(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	type want struct {
		delay, rate int64 // breaches of the key
		unsupported int64 // short gaps of a crawler that ignores Crawl-delay
	}
	for _, tc := range []struct {
		name string
		rows []measureRow
		want map[botKey]want
	}{
		{"gaps under and at the delay", []measureRow{
			{key: bot1, ts: t0, file: 1, line: 1, delay: 10, hasDelay: true},
			{key: bot1, ts: t0 + 10*sec, file: 1, line: 2, delay: 10, hasDelay: true},     // 10 s: not under
			{key: bot1, ts: t0 + 20*sec - 1, file: 1, line: 3, delay: 10, hasDelay: true}, // 1 µs under
			{key: bot1, ts: t0 + 25*sec, file: 1, line: 4},                                // no delay in force
		}, map[botKey]want{bot1: {delay: 1}}},
		{"ties at one instant", []measureRow{
			{key: bot1, ts: t0, file: 2, line: 7, delay: 5, hasDelay: true},
			{key: bot1, ts: t0, file: 1, line: 9, delay: 5, hasDelay: true}, // first of the instant: no gap
			{key: bot1, ts: t0, file: 1, line: 3, delay: 5, hasDelay: true},
		}, map[botKey]want{bot1: {delay: 2}}},
		{"ties with different delays, in file order", []measureRow{
			{key: bot1, ts: t0, file: 1, line: 1, delay: 1, hasDelay: true},
			{key: bot1, ts: t0 + 30*sec, file: 2, line: 1, delay: 0.5, hasDelay: true}, // gap 0: breach
			{key: bot1, ts: t0 + 30*sec, file: 1, line: 5},                             // gap 30 s, no delay
		}, map[botKey]want{bot1: {delay: 1}}},
		{"keys apart: host and identity", []measureRow{
			{key: bot1, ts: t0, file: 1, line: 1, delay: 10, hasDelay: true},
			{key: bot1b, ts: t0 + sec, file: 1, line: 2, delay: 10, hasDelay: true},
			{key: bot1s, ts: t0 + 2*sec, file: 1, line: 3, delay: 10, hasDelay: true},
			{key: bot1, ts: t0 + 3*sec, file: 1, line: 4, delay: 10, hasDelay: true},
		}, map[botKey]want{bot1: {delay: 1}}},
		{"a crawler that ignores Crawl-delay, and its impostor", []measureRow{
			{key: bot1, ts: t0, file: 1, line: 1, delay: 10, hasDelay: true, ignored: true},
			{key: bot1, ts: t0 + sec, file: 1, line: 2, delay: 10, hasDelay: true, ignored: true}, // unsupported
			{key: bot1, ts: t0 + 2*sec, file: 1, line: 3, delay: 10, hasDelay: true},              // supported then: a breach
			{key: bot1s, ts: t0, file: 1, line: 4, delay: 10, hasDelay: true, ignored: true},
			{key: bot1s, ts: t0 + sec, file: 1, line: 5, delay: 10, hasDelay: true, ignored: true}, // spoofed: a breach
		}, map[botKey]want{bot1: {delay: 1, unsupported: 1}, bot1s: {delay: 1}}},
		{"request-rate window (ts - t, ts]", []measureRow{
			{key: dotbot, ts: t0, file: 1, line: 1, rateN: 2, rateS: 10},
			{key: dotbot, ts: t0 + 5*sec, file: 1, line: 2, rateN: 2, rateS: 10},
			{key: dotbot, ts: t0 + 10*sec, file: 1, line: 3, rateN: 2, rateS: 10},     // t0 is out: 2
			{key: dotbot, ts: t0 + 10*sec + 1, file: 1, line: 4, rateN: 2, rateS: 10}, // 3: breach
		}, map[botKey]want{dotbot: {rate: 1}}},
		{"request-rate peers all count", []measureRow{
			{key: dotbot, ts: t0, file: 3, line: 1, rateN: 2, rateS: 60},
			{key: dotbot, ts: t0, file: 1, line: 1, rateN: 2, rateS: 60},
			{key: dotbot, ts: t0, file: 2, line: 1, rateN: 2, rateS: 60}, // each counts 3
		}, map[botKey]want{dotbot: {rate: 3}}},
		{"windowed request-rate: rows without one count, are not counted", []measureRow{
			{key: dotbot, ts: t0, file: 1, line: 1},
			{key: dotbot, ts: t0 + sec, file: 1, line: 2},
			{key: dotbot, ts: t0 + 2*sec, file: 1, line: 3, rateN: 2, rateS: 60}, // 3 in the window
			{key: dotbot, ts: t0 + 3*sec, file: 1, line: 4, rateN: 10, rateS: 60},
		}, map[botKey]want{dotbot: {rate: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			compareMeasures(t, tc.rows)
			m := goMeasures(tc.rows)
			got := map[botKey]want{}
			for i, r := range tc.rows {
				w := got[r.key]
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
					got[r.key] = w
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("breaches %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWindowMeasuresRandom holds measure.Windows to queries/measures.sql on
// random requests: many at the same instant (whole seconds, and some
// microseconds apart), several keys, Crawl-delay and Request-rate that
// change from request to request (versions, windowed rates) or are not in
// force, over several files.
func TestWindowMeasuresRandom(t *testing.T) {
	t0 := time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC).UnixMicro()
	keys := []botKey{bot1, bot1b, bot1s, dotbot, {Bot: "curl", Host: "", Identity: 0}}
	delays := []float64{0, 0.5, 1, 2.5, 5, 10}
	rates := [][2]int32{{0, 0}, {1, 1}, {2, 3}, {3, 10}, {10, 60}, {1, 86400}}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 15))
			var rows []measureRow
			lines := map[int64]int64{}
			for range 1500 {
				r := measureRow{key: keys[rng.IntN(len(keys))], file: int64(rng.IntN(3))}
				r.ts = t0 + int64(rng.IntN(120))*sec/2
				if rng.IntN(4) == 0 {
					r.ts += int64(rng.IntN(3)) // a few µs apart
				}
				lines[r.file]++
				r.line = lines[r.file]
				if d := delays[rng.IntN(len(delays))]; d > 0 {
					r.delay, r.hasDelay = d, true
					r.ignored = rng.IntN(3) == 0
				}
				rt := rates[rng.IntN(len(rates))]
				r.rateN, r.rateS = rt[0], rt[1]
				rows = append(rows, r)
			}
			compareMeasures(t, rows)
		})
	}
}

// TestMeasureKey checks the counts of a summary row.
func TestMeasureKey(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	k := &keyRows{
		ts:            []int64{t0.Add(2 * time.Second).UnixMicro(), t0.UnixMicro(), t0.Add(time.Hour).UnixMicro(), t0.Add(time.Second).UnixMicro()},
		order:         []int64{0, 0, 1, 0},
		line:          []int64{3, 1, 1, 2},
		verdict:       []string{"disallowed", "allowed", "disallowed_in_grace", "user_triggered"},
		robotsFetch:   []bool{false, true, false, false},
		visitBreach:   []bool{true, false, false, true},
		crawlDelay:    []float64{5, 5, 5, 5},
		hasDelay:      []bool{true, true, true, true},
		delayIgnored:  make([]bool, 4),
		rateN:         make([]int32, 4),
		rateS:         make([]int32, 4),
		hasRate:       make([]bool, 4),
		clientIP:      []string{"192.0.2.1", "192.0.2.1", "", "2001:db8::1"},
		hasIP:         []bool{true, true, false, true},
		operator:      make([]string, 4),
		userTriggered: make([]bool, 4),
		userAgent:     make([]string, 4),
		hasUA:         make([]bool, 4),
		rule:          make([]string, 4),
		hasRule:       make([]bool, 4),
	}
	r, err := measureKey(botKey{Bot: "MJ12bot", Host: "a.example", Identity: 1}, k)
	if err != nil {
		t.Fatal(err)
	}
	want := report.BotRow{Bot: "MJ12bot", Host: "a.example", Identity: "verified", Requests: 4, RobotsFetches: 1,
		Disallowed: 1, DisallowedInGrace: 1, UserTriggered: 1, VisitTimeBreaches: 2, CrawlDelayBreaches: 2, IPs: 2,
		FirstSeen: t0, LastSeen: t0.Add(time.Hour)}
	if r != want {
		t.Errorf("row\n got %+v\nwant %+v", r, want)
	}
	for _, tc := range []struct {
		name string
		key  botKey
		k    *keyRows
	}{
		{"no rows", botKey{Bot: "x"}, &keyRows{}},
		{"ragged", botKey{Bot: "x"}, &keyRows{ts: []int64{1}}},
		{"bad identity", botKey{Bot: "x", Identity: 7}, k},
	} {
		if _, err := measureKey(tc.key, tc.k); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestSortBotRows checks the order of summary.sql.
func TestSortBotRows(t *testing.T) {
	rows := []report.BotRow{
		{Bot: "b", Requests: 5},
		{Bot: "a", Requests: 5, Identity: "spoofed"},
		{Bot: "a", Requests: 5, Identity: "unverified"},
		{Bot: "c", Requests: 1, VisitTimeBreaches: 1},
		{Bot: "d", Requests: 1, DisallowedInGrace: 1},
		{Bot: "e", Requests: 1, DisallowedUnreachable: 2},
		{Bot: "f", Requests: 1, Disallowed: 1},
		{Bot: "a", Host: "x", Requests: 5, Identity: "verified"},
	}
	sortBotRows(rows)
	var got []string
	for _, r := range rows {
		got = append(got, r.Bot+"/"+r.Host+"/"+r.Identity)
	}
	want := "e//,f//,d//,c//,a//unverified,a//spoofed,a/x/verified,b//"
	if strings.Join(got, ",") != want {
		t.Errorf("order %s, want %s", strings.Join(got, ","), want)
	}
}
