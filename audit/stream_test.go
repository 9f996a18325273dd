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

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
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

// sqlWindowCounts returns what summary_counts.sql counts with the window
// functions of queries/measures.sql (window_measures(false)) over rows: per
// key with a limit, "bot/host/identity" → {crawl-delay breaches,
// request-rate breaches, crawl_delay_unsupported}.
func sqlWindowCounts(t *testing.T, rows []windowRow) map[string][3]int64 {
	t.Helper()
	ctx := context.Background()
	s, err := store.OpenWith(ctx, "", store.Options{NoTables: true})
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
		file_id INTEGER, line BIGINT, crawl_delay DOUBLE, rate_requests INTEGER, rate_seconds INTEGER, crawl_delay_ignored BOOLEAN)`)
	var values [][]any
	for i, r := range rows {
		v := []any{i, r.us, r.bot, r.host, r.identity, r.file, r.line, nil, nil, nil, false}
		if r.policy >= 0 {
			p := windowPolicies[r.policy]
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
	out := map[string][3]int64{}
	err = s.Each(ctx, `SELECT bot_id, host_id, identity_code,
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
	for _, v := range w.rows(windowPolicies) {
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

// TestStreamWindowsGivesUp: past its bounds streamKeys measures nothing
// and says so, and the SQL then measures every key (an audit with both
// ways gives the same summary: TestAuditWindowsStreamedOrNot).
func TestStreamWindowsGivesUp(t *testing.T) {
	w := newStreamKeys(nil)
	for i := range maxStreamKeys + 1 {
		w.add(&streamRow{bot: int32(i), host: 1, us: int64(i), line: int64(i), may: true})
	}
	if w.windowsStreamed() || w.rows(windowPolicies) != nil || w.keys != nil {
		t.Errorf("%d keys: streamed %v, %d keys kept", maxStreamKeys+1, w.windowsStreamed(), len(w.keys))
	}
	w = newStreamKeys(nil)
	w.add(&streamRow{bot: 1, host: 1 << 30, line: 1, may: true}) // a host id that does not fit the packed key
	if w.windowsStreamed() {
		t.Error("a host id of 2^30 was measured")
	}
	w = newStreamKeys(nil)
	w.add(&streamRow{bot: 1, host: 1, line: 1, policy: -1})       // a User-Agent no version limits ...
	w.add(&streamRow{bot: 1, host: 1, us: 1, line: 2, may: true}) // ... then one of the same bot that one does
	if w.windowsStreamed() {
		t.Error("a key whose first request was not kept was measured")
	}
	var nilW *streamKeys
	if nilW.windowsStreamed() || nilW.rows(nil) != nil {
		t.Error("a nil streamKeys says it measured something")
	}
}

// TestAuditWindowsStreamedOrNot: the audit gives the same summary whether
// the judge measured the windows while the logs streamed or the SQL's
// window functions did (the judge gave up), on a generated month with
// Crawl-delay and Request-rate breaches, read as one file and as two whose
// lines interleave (every key's requests then arrive out of order).
func TestAuditWindowsStreamedOrNot(t *testing.T) {
	robotsDir, log := writeGenerated(t, t.TempDir(), "combined", false)
	audit := func(logs ...string) []report.BotRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, logs)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return res.Summary.Bots
	}
	for _, logs := range [][]string{{log}, interleave(t, log)} {
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

// interleave splits log into two files of alternate lines, so that every
// bot's requests reach the judge out of order.
func interleave(t *testing.T, log string) []string {
	t.Helper()
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
	a, b := log+".a", log+".b"
	if err := os.WriteFile(a, even, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, odd, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{a, b}
}

// TestAuditChangesStreamedOrNot: the reactions to robots.txt changes
// (summary.json's "changes") are the same whether the judge gathered them
// while the logs streamed (streamChanges, with the periods of unreachable
// and unavailable robots.txt applied afterwards: availabilityFilter) or the
// SQL found them (changes.sql: the judge gave up, at once or part-way), on
// generated months of one host and of three, with the sample's robots.txt
// outages and without, read as one file and as two whose lines interleave.
// The months must have bots that break an added rule, fetch robots.txt
// after a change and obey.
func TestAuditChangesStreamedOrNot(t *testing.T) {
	outages := genConfig()
	calm := outages
	calm.RobotsOutages = nil
	threeCalm := calm
	threeCalm.Hosts = []string{"a.example", "b.example", "www.example.com"}
	threeCalm.Lines = 30000
	threeOutages := threeCalm
	threeOutages.RobotsOutages = outages.RobotsOutages
	for name, cfg := range map[string]loggen.Config{"one host": calm, "three hosts": threeCalm,
		"one host, outages": outages, "three hosts, outages": threeOutages} {
		t.Run(name, func(t *testing.T) {
			robotsDir, log := writeMonth(t, t.TempDir(), cfg, "jsonl", false)
			audit := func(logs []string) report.Summary {
				t.Helper()
				res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, logs)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Close()
				return res.Summary
			}
			for _, logs := range [][]string{{log}, interleave(t, log)} {
				streamed := audit(logs)
				if (len(streamed.RobotsStatus) > 0) != (len(cfg.RobotsOutages) > 0) {
					t.Fatalf("%v: %d periods of unavailable robots.txt with %d outages", logs, len(streamed.RobotsStatus), len(cfg.RobotsOutages))
				}
				var breaking int64
				var fetched, obeyed int
				for _, c := range streamed.Changes {
					breaking += c.Breaking
					if c.FirstRobotsFetch != nil {
						fetched++
					}
					if c.FirstObeying != nil {
						obeyed++
					}
				}
				if breaking == 0 || fetched == 0 || obeyed == 0 {
					t.Fatalf("%v: %d changes, %d breaches, %d fetched robots.txt, %d obeyed: nothing to compare", logs, len(streamed.Changes), breaking, fetched, obeyed)
				}
				for _, limit := range []struct {
					keys, requests int
				}{{0, maxStreamRequests}, {maxStreamKeys, 100}} {
					func() {
						defer func(k, r, n int) { maxStreamKeys, maxStreamRequests, maxStreamTimes = k, r, n }(maxStreamKeys, maxStreamRequests, maxStreamTimes)
						maxStreamKeys, maxStreamRequests, maxStreamTimes = limit.keys, limit.requests, limit.requests
						if sql := audit(logs); !reflect.DeepEqual(streamed.Changes, sql.Changes) || !reflect.DeepEqual(streamed.Bots, sql.Bots) {
							t.Errorf("%v, at most %d keys and %d requests: streamed changes:\n%+v\nSQL:\n%+v", logs, limit.keys, limit.requests, streamed.Changes, sql.Changes)
						}
					}()
				}
			}
		})
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
		periods: map[[2]int64][]period{{1, -1}: {
			{from: 100, to: 200, unreachable: true},
			{from: 300, to: 400},
			{from: 500, open: true, unreachable: true},
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
	list := []streamChange{
		{hi: 0, k: 1, at: base + 10*day, until: base + 15*day},
		{hi: 0, k: 2, at: base + 15*day, until: base + 45*day},
		{hi: 1, k: 1, at: base + 20*day, until: base + 50*day},
	}
	for i := range list {
		list[i].from, list[i].to = list[i].at-30*day, list[i].at+30*day
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
				edges := []int64{ch.at, ch.until, ch.from, ch.to}
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
		gotMarks := map[key]changeMarks{}
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
		wantMarks := map[key]changeMarks{}
		err = st.Each(ctx, queries.SQL("changes.sql"), nil, func(v []any) error {
			k := key{int(numeric(v[0])), numeric(v[1]), numeric(v[2])}
			utc := func(x any) any {
				if t, ok := x.(time.Time); ok {
					return t.UTC()
				}
				return nil
			}
			wantMarks[k] = changeMarks{firstFetch: utc(v[3]), lastBreak: utc(v[4]), breaking: numeric(v[5]), firstObeying: utc(v[6])}
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
			if m.breaking > 0 {
				breaking++
			}
			if m.firstObeying != nil {
				obeying++
			}
		}
	}
	if checked == 0 || breaking == 0 || obeying == 0 {
		t.Fatalf("%d reactions, %d with breaches, %d obeying: the test measured nothing", checked, breaking, obeying)
	}
}

// TestAuditFileOrderDecidesTies: two requests of one bot at the same
// instant in two files are ordered by the files' places among the inputs
// (their dict ids follow ingest's Options.Files), not by which parsing
// goroutine handed its batch over first: the first-named file's request
// has the gap since the bot's previous request, the other 0, in every run,
// in the SQL's measures (breaches.csv, `query`) and, as counts, in the
// streamed windows.
func TestAuditFileOrderDecidesTies(t *testing.T) {
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nCrawl-delay: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const ip = "157.55.39.1"
	first := filepath.Join(dir, "z-first.log") // named first, sorted last
	second := filepath.Join(dir, "a-second.log")
	var a, b []string
	for i := range 200 {
		ts := fmt.Sprintf("04/Oct/2026:%02d:%02d:00 +0000", 4+i/60, i%60)
		a = append(a, line(ip, ts, fmt.Sprintf("/a/%d", i), uaBing))
		b = append(b, line(ip, ts, fmt.Sprintf("/b/%d", i), uaBing))
	}
	if err := os.WriteFile(first, []byte(strings.Join(a, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, []byte(strings.Join(b, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for run := range 4 {
		res, err := Run(context.Background(), Config{Robots: robotsFile, DB: filepath.Join(dir, fmt.Sprintf("audit%d.duckdb", run))}, []string{first, second})
		if err != nil {
			t.Fatal(err)
		}
		var firstGaps, secondGaps, secondNonZero int64
		err = res.store.Each(context.Background(), `SELECT file, count(*) FILTER (WHERE gap_us > 0), count(*) FROM judged GROUP BY file`, nil, func(v []any) error {
			switch v[0] {
			case first:
				firstGaps = numeric(v[1])
			case second:
				secondNonZero, secondGaps = numeric(v[1]), numeric(v[2])
			}
			return nil
		})
		res.Close()
		if err != nil {
			t.Fatal(err)
		}
		// Every request of the first file but the bot's first follows a
		// minute after the previous instant; every one of the second file
		// shares its instant with the first file's.
		if firstGaps != 199 || secondNonZero != 0 || secondGaps != 200 {
			t.Fatalf("run %d: %d gaps in %s, %d of %d non-zero in %s; want 199, 0 of 200", run, firstGaps, first, secondNonZero, secondGaps, second)
		}
	}
}
