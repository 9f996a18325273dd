//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
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
	{}, // a group without limits
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

// sqlWindowCounts returns what summary_counts.sql counts with the window
// functions of queries/measures.sql (window_measures(false)) over rows: per
// key with a limit, "bot/host/identity" → {crawl-delay breaches,
// request-rate breaches}.
func sqlWindowCounts(t *testing.T, rows []windowRow) map[string][2]int64 {
	t.Helper()
	ctx := context.Background()
	s, err := openStore(ctx, "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	exec := func(q string) {
		t.Helper()
		if err := s.Exec(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	exec(`CREATE TABLE requests (rid BIGINT, ts TIMESTAMPTZ, bot_id INTEGER, host_id INTEGER, identity_code UTINYINT,
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER)`)
	var values [][]any
	for i, r := range rows {
		v := []any{i, r.us, r.bot, r.host, r.identity, r.file, r.line, nil, nil, nil}
		if r.policy >= 0 {
			p := windowPolicies[r.policy]
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
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER)`)
	if err := s.insertValues(ctx, "staged", values); err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO requests SELECT rid, make_timestamp(us)::TIMESTAMPTZ, bot_id, host_id, identity_code,
		file_id, line, crawl_delay, rate_requests, rate_seconds FROM staged`)
	exec(queries.SQL("measures.sql"))
	out := map[string][2]int64{}
	err = s.Each(ctx, `SELECT bot_id, host_id, identity_code,
	    count(*) FILTER (WHERE crawl_delay_breach), count(*) FILTER (WHERE request_rate_breach)
	FROM window_measures(false) GROUP BY ALL`, nil, func(v []any) error {
		out[fmt.Sprintf("%v/%v/%v", v[0], v[1], v[2])] = [2]int64{numeric(v[3]), numeric(v[4])}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// streamWindowCounts returns what streamWindows counts of rows, fed in
// their order, in sqlWindowCounts's form.
func streamWindowCounts(t *testing.T, rows []windowRow) map[string][2]int64 {
	t.Helper()
	w := newStreamWindows()
	for _, r := range rows {
		w.add(r.bot, r.host, r.identity, r.us, r.file, r.line, r.policy, r.bot != 3)
	}
	if !w.streamed() {
		t.Fatal("streamWindows gave up")
	}
	out := map[string][2]int64{}
	for _, v := range w.rows(windowPolicies) {
		out[fmt.Sprintf("%v/%v/%v", v[0], v[1], v[2])] = [2]int64{v[3].(int64), v[4].(int64)}
	}
	return out
}

// TestStreamWindowsEqualSQL holds the windows the judge measures while the
// logs stream (streamWindows) to queries/measures.sql's window functions,
// which the summary ran before and runs still when the judge gives up: the
// same keys, the same Crawl-delay and Request-rate breaches, on random
// requests with ties, µs gaps around a tiny Crawl-delay, overlapping
// Request-rate windows, and keys whose requests arrive in and out of order.
func TestStreamWindowsEqualSQL(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	var breaches [2]int64
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
			t.Fatalf("round %d (%d requests): streamWindows and window_measures differ:\n%s", round, len(rows), b.String())
		}
		for _, c := range want {
			breaches[0] += c[0]
			breaches[1] += c[1]
		}
	}
	// The rounds must have had something to agree on.
	if breaches[0] == 0 || breaches[1] == 0 {
		t.Fatalf("the random requests breached %v: the test measured nothing", breaches)
	}
}

// TestStreamWindowsGivesUp: past its bounds streamWindows measures nothing
// and says so, and the SQL then measures every key (an audit with both
// ways gives the same summary: TestAuditWindowsStreamedOrNot).
func TestStreamWindowsGivesUp(t *testing.T) {
	w := newStreamWindows()
	for i := range maxStreamKeys + 1 {
		w.add(int32(i), 1, 0, int64(i), 0, int64(i), 0, true)
	}
	if w.streamed() || w.rows(windowPolicies) != nil || w.keys != nil {
		t.Errorf("%d keys: streamed %v, %d keys kept", maxStreamKeys+1, w.streamed(), len(w.keys))
	}
	w = newStreamWindows()
	w.add(1, 1<<30, 0, 0, 0, 1, 0, true) // a host id that does not fit the packed key
	if w.streamed() {
		t.Error("a host id of 2^30 was measured")
	}
	w = newStreamWindows()
	w.add(1, 1, 0, 0, 0, 1, -1, false) // a User-Agent no version limits ...
	w.add(1, 1, 0, 1, 0, 2, 0, true)   // ... then one of the same bot that one does
	if w.streamed() {
		t.Error("a key whose first request was not kept was measured")
	}
	var nilW *streamWindows
	if nilW.streamed() || nilW.rows(nil) != nil {
		t.Error("a nil streamWindows says it measured something")
	}
}

// TestAuditWindowsStreamedOrNot: the audit gives the same summary whether
// the judge measured the windows while the logs streamed or the SQL's
// window functions did (the judge gave up), on a generated month with
// Crawl-delay and Request-rate breaches, read as one file and as two whose
// lines interleave (every key's requests then arrive out of order).
func TestAuditWindowsStreamedOrNot(t *testing.T) {
	dir := t.TempDir()
	robotsDir, log := writeGenerated(t, dir, "combined", false)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var odd, even []byte
	for i, l := range bytes.SplitAfter(data, []byte("\n")) {
		if i%2 == 0 {
			odd = append(odd, l...)
		} else {
			even = append(even, l...)
		}
	}
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	if err := os.WriteFile(a, even, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, odd, 0o644); err != nil {
		t.Fatal(err)
	}
	audit := func(logs ...string) []report.BotRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, logs)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return res.Summary.Bots
	}
	for _, logs := range [][]string{{log}, {a, b}} {
		streamed := audit(logs...)
		func() {
			defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
			maxStreamKeys = 0
			if sql := audit(logs...); !reflect.DeepEqual(streamed, sql) {
				t.Errorf("%v: streamed windows:\n%+v\nSQL windows:\n%+v", logs, streamed, sql)
			}
		}()
		var delay, rate int64
		for _, r := range streamed {
			delay += r.CrawlDelayBreaches
			rate += r.RequestRateBreaches
		}
		if delay == 0 || rate == 0 {
			t.Errorf("%v: %d Crawl-delay and %d Request-rate breaches: the month measured nothing", logs, delay, rate)
		}
	}
}

// windowRobots gives the real logs' crawlers Crawl-delays (whole and
// fractional), Request-rates (one with a Visit-time-like window of the
// day) and both.
const windowRobots = `User-agent: *
Crawl-delay: 5
Request-rate: 1/10s
Disallow: /private/

User-agent: Googlebot
Crawl-delay: 1

User-agent: bingbot
User-agent: msnbot
Crawl-delay: 2.5

User-agent: MJ12bot
Request-rate: 3/1m 0600-1800
Crawl-delay: 0.5

User-agent: AhrefsBot
Request-rate: 2/30s
`

// TestAuditWindowsStreamedOrNotRealLogs: on the real logs of
// ../shared/data (whose lines are not in time order), each alone and all
// three at once, the streamed windows and the SQL's give the same summary.
func TestAuditWindowsStreamedOrNotRealLogs(t *testing.T) {
	root := shareddata.Path(t, "real-logs")
	robotsFile := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsFile, []byte(windowRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := []string{
		filepath.Join(root, "elastic-apache-semicomplete-2015/apache_logs.gz"),
		filepath.Join(root, "almhuette-raith-apache-2019/access.log.gz"),
		filepath.Join(root, "zanbil-shop-nginx-2019-sample/access.log"),
	}
	audit := func(logs []string) []report.BotRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsFile}, logs)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return res.Summary.Bots
	}
	var delay, rate int64
	for _, in := range [][]string{logs[:1], logs[1:2], logs[2:], logs} {
		streamed := audit(in)
		func() {
			defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
			maxStreamKeys = 0
			if sql := audit(in); !reflect.DeepEqual(streamed, sql) {
				t.Errorf("%v: streamed windows:\n%+v\nSQL windows:\n%+v", in, streamed, sql)
			}
		}()
		for _, r := range streamed {
			delay += r.CrawlDelayBreaches
			rate += r.RequestRateBreaches
		}
	}
	if delay == 0 || rate == 0 {
		t.Errorf("%d Crawl-delay and %d Request-rate breaches: the logs measured nothing", delay, rate)
	}
}
