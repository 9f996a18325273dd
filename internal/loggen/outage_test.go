package loggen

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestParseOutage(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		in   string
		want Outage // zero: an error
	}{
		{"2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503", Outage{at("2026-10-22T06:00:00Z"), at("2026-10-22T11:00:00Z"), 503}},
		{"2026-10-27T08:00:00+02:00/2026-10-28T06:00:00Z=404", Outage{at("2026-10-27T06:00:00Z"), at("2026-10-28T06:00:00Z"), 404}},
		{"2026-10-01T00:00:00Z/2026-10-01T00:00:01Z=429", Outage{at("2026-10-01T00:00:00Z"), at("2026-10-01T00:00:01Z"), 429}},
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=410", Outage{at("2026-10-01T00:00:00Z"), at("2026-10-02T00:00:00Z"), 410}},
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=599", Outage{at("2026-10-01T00:00:00Z"), at("2026-10-02T00:00:00Z"), 599}},
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=200", Outage{}}, // not an error status
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=302", Outage{}}, // a redirect: the log cannot tell where it led
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=600", Outage{}}, // not HTTP
		{"2026-10-02T00:00:00Z/2026-10-01T00:00:00Z=503", Outage{}}, // end before start
		{"2026-10-01T00:00:00Z/2026-10-01T00:00:00Z=503", Outage{}}, // empty
		{"2026-10-01/2026-10-02=503", Outage{}},                     // dates are not RFC 3339 instants
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z", Outage{}},     // no status
		{"2026-10-01T00:00:00Z=503", Outage{}},                      // no end
		{"2026-10-01T00:00:00Z/2026-10-02T00:00:00Z=5O3", Outage{}}, // not a number
		{"", Outage{}},
	} {
		got, err := ParseOutage(tc.in)
		if tc.want.Status == 0 {
			if err == nil {
				t.Errorf("ParseOutage(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !got.Start.Equal(tc.want.Start) || !got.End.Equal(tc.want.End) || got.Status != tc.want.Status {
			t.Errorf("ParseOutage(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		// String gives what ParseOutage reads back.
		if again, err := ParseOutage(got.String()); err != nil || again.String() != got.String() {
			t.Errorf("ParseOutage(%q) = %v, %v", got.String(), again, err)
		}
	}
}

func TestOutagesBadConfig(t *testing.T) {
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	h := func(n int) time.Time { return start.Add(time.Duration(n) * time.Hour) }
	for name, outs := range map[string][]Outage{
		"overlap":          {{h(2), h(5), 503}, {h(4), h(6), 404}},
		"overlap unsorted": {{h(4), h(6), 404}, {h(1), h(3), 410}, {h(2), h(5), 503}},
		"status 304":       {{h(2), h(5), 304}},
		"status 0":         {{h(2), h(5), 0}},
		"empty":            {{h(2), h(2), 503}},
	} {
		cfg := Config{Start: start, End: h(48), Lines: 100, RobotsOutages: outs}
		if err := Generate(cfg, func(*Request) error { return nil }); err == nil {
			t.Errorf("%s: Generate succeeded, want an error", name)
		}
	}
	// Adjacent outages are fine.
	cfg := Config{Start: start, End: h(48), Lines: 100, RobotsOutages: []Outage{{h(2), h(5), 503}, {h(5), h(6), 404}}}
	if err := Generate(cfg, func(*Request) error { return nil }); err != nil {
		t.Errorf("adjacent outages: %v", err)
	}
}

// Without outages the generator writes the bytes it wrote before it had
// outages (the hashes were taken then), so benchmark logs stay comparable: RealisticConfig, the benchmark
// month, clears them, and a configuration that asks for none
// gets none.
func TestNoOutagesSameBytes(t *testing.T) {
	noOutages := SampleConfig()
	noOutages.RobotsOutages = nil
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"RealisticConfig(50_000)", RealisticConfig(50_000), "be31a91825ed74087e03e594a7748ae286897d6ced80333bf2185327c8ba62b6"},
		{"SampleConfig without outages", noOutages, "b07b6830b0b749e4856485033725e5be3944389e8a85027d71cc59ce9f510252"},
	} {
		sum := sha256.Sum256(render(t, tc.cfg, "combined"))
		if got := hex.EncodeToString(sum[:]); got != tc.want {
			t.Errorf("%s: combined log's SHA-256 %s, want %s", tc.name, got, tc.want)
		}
	}
}

// robotsSeen is what /robots.txt had answered the crawler behind a
// request, replayed from the log's own /robots.txt responses: its own last
// fetch (for a fetch, this one) and when, and its operator's last fetch on
// the host (by any of the operator's crawlers) before the request and
// after it. 0: none yet.
type robotsSeen struct {
	own           int
	ownAt         int64
	opPrev, opNow int
}

// missing reports whether the crawler's own last fetch got a 4xx other
// than 429: its copy allows everything.
func (s robotsSeen) missing() bool { return s.own >= 400 && !unreachable(s.own) }

// cut reports whether the operator's last answer before the request was a
// 5xx or 429: the file was unreachable for all its crawlers.
func (s robotsSeen) cut() bool { return unreachable(s.opPrev) }

// hostWho is a crawler (Actor) or an operator on a host.
type hostWho struct{ host, who string }

// replayRobots returns what each request's crawler had been answered (zero
// for browsers and impostors). Crawlers are told apart by host and Actor,
// which holds for configurations without BotShare.
func replayRobots(rs []Request) []robotsSeen {
	type answer struct {
		status int
		at     int64
	}
	own, op := map[hostWho]answer{}, map[hostWho]int{}
	out := make([]robotsSeen, len(rs))
	for i, r := range rs {
		if r.Operator == "" {
			continue
		}
		ak, ok := hostWho{r.Host, r.Actor}, hostWho{r.Host, r.Operator}
		s := robotsSeen{opPrev: op[ok]}
		if string(r.Target) == "/robots.txt" {
			own[ak] = answer{r.Status, r.Unix}
			op[ok] = r.Status
		}
		s.own, s.ownAt, s.opNow = own[ak].status, own[ak].at, op[ok]
		out[i] = s
	}
	return out
}

// outageAt returns the index of the outage of cfg at t, -1 for none.
func outageAt(cfg Config, t int64) int {
	for i, o := range cfg.RobotsOutages {
		if o.Start.Unix() <= t && t < o.End.Unix() {
			return i
		}
	}
	return -1
}

// TestOutages checks what robots.txt outages do (see Outage and
// planRobots), from the generated requests alone:
//   - every /robots.txt response in an outage has its status and error
//     page, 200 and the file outside;
//   - while its operator's last /robots.txt answer on the host is a 5xx or
//     429, a crawler that obeys robots.txt makes only /robots.txt fetches,
//     one crawler's tries at least 55 minutes apart within the outage, and
//     the operator's first request at or after the outage's end is a fetch
//     answered 200; Bytespider (ignores Disallow) crawls on;
//   - a crawler whose own last fetch got a 4xx crawls as if everything were
//     allowed (it requests paths the version disallows), but never at or
//     after the end of that outage, and never once its operator has been
//     answered 200 again: no request made on the "allow all" copy falls
//     after the audit's period for the operator has closed.
func TestOutages(t *testing.T) {
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	h := func(n float64) time.Time { return start.Add(time.Duration(n * float64(time.Hour))) }
	for _, tc := range []struct {
		name string
		cfg  Config
		// the fewest host-operators that meet each outage (fetch in it)
		minMet []int
		// Bytespider crawls while unreachable for it
		ignoredCut bool
	}{
		{name: "sample", cfg: SampleConfig(), minMet: []int{9, 15}, ignoredCut: true},
		{name: "a week on two hosts, every kind", cfg: Config{Seed: 3, Start: start, End: h(7 * 24), Lines: 60000,
			Hosts: []string{"a.example", DefaultHost},
			RobotsOutages: []Outage{
				{h(30), h(36), 503}, {h(50), h(53), 429}, {h(53), h(65), 410}, {h(100), h(124), 404}, {h(140), h(143), 500},
			}},
			minMet: []int{3, 3, 22, 35, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			rs := collect(t, cfg)
			st := replayRobots(rs)
			vs := Robots(DefaultHost)
			met := make([]map[hostWho]bool, len(cfg.RobotsOutages))
			for i := range met {
				met[i] = map[hostWho]bool{}
			}
			var silentBreaks, ignoredCut, tries, allowAll, allowAllDisallowed int
			lastTry := map[hostWho]int64{} // by crawler, within one cut
			afterEnd := map[hostWho]int{}  // the operator's first request after each unreachable outage: done
			when := func(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }
			for i, r := range rs {
				s := st[i]
				fetch := string(r.Target) == "/robots.txt"
				oi := outageAt(cfg, r.Unix)
				if fetch {
					want, bytes := 200, int64(-1)
					if oi >= 0 {
						o := cfg.RobotsOutages[oi]
						want, bytes = o.Status, missingPageBytes
						if o.Unreachable() {
							bytes = errorPageBytes
						}
						met[oi][hostWho{r.Host, r.Operator}] = true
					}
					if r.Status != want || bytes >= 0 && r.Bytes != bytes {
						t.Fatalf("%s %s at %s: /robots.txt answered %d (%d bytes), want %d", r.Host, r.Actor, when(r.Unix), r.Status, r.Bytes, want)
					}
				}
				if r.Operator == "" {
					continue
				}
				ak, ok := hostWho{r.Host, r.Actor}, hostWho{r.Host, r.Operator}
				if s.cut() {
					switch {
					case r.Behavior.obeys() && !fetch:
						silentBreaks++
					case r.Behavior == IgnoresDisallow && !fetch:
						ignoredCut++
					case fetch && r.Actor != "Wget": // Wget fetches at each burst's start
						tries++
						if last, ok := lastTry[ak]; ok && r.Unix-last < retryAfter && oi >= 0 && oi == outageAt(cfg, last) {
							t.Errorf("%s %s retried /robots.txt %d s after its last try", r.Host, r.Actor, r.Unix-last)
						}
					}
					// The first request at or after the end of the outage
					// that cut the operator off is a fetch answered 200.
					for j, o := range cfg.RobotsOutages {
						if o.Unreachable() && r.Unix >= o.End.Unix() && afterEnd[ok] <= j {
							afterEnd[ok] = j + 1
							if oi < 0 && (!fetch || r.Status != 200) {
								t.Errorf("%s %s: first request at or after the end of outage %s: %s at %s, answered %d", r.Host, r.Actor, o, r.Target, when(r.Unix), r.Status)
							}
						}
					}
				} else {
					delete(lastTry, ak)
				}
				if fetch && unreachable(r.Status) {
					lastTry[ak] = r.Unix
				}
				// A 4xx copy: allow all, until the end of its outage.
				if s.missing() && !fetch && r.Behavior.obeys() {
					allowAll++
					if o := outageAt(cfg, s.ownAt); o < 0 || r.Unix >= cfg.RobotsOutages[o].End.Unix() {
						t.Errorf("%s %s crawled at %s on the 4xx copy it fetched at %s, past the outage", r.Host, r.Actor, when(r.Unix), when(s.ownAt))
					}
					if s.opNow == 200 {
						t.Errorf("%s %s crawled at %s on a 4xx copy after its operator %s was answered 200", r.Host, r.Actor, when(r.Unix), r.Operator)
					}
					if v := versionAt(vs, r.Unix); r.Host == DefaultHost && v >= 0 && !vs[v].Allowed(r.UserAgent, string(r.Target)) {
						allowAllDisallowed++
					}
				}
			}
			if silentBreaks != 0 {
				t.Errorf("crawlers that obey robots.txt made %d requests while it was unreachable for their operator", silentBreaks)
			}
			cutOff := 0
			for i, m := range met {
				if len(m) < tc.minMet[i] {
					t.Errorf("outage %s met by %d host-operators, want at least %d: %v", cfg.RobotsOutages[i], len(m), tc.minMet[i], m)
				}
				if cfg.RobotsOutages[i].Unreachable() {
					cutOff += len(m)
				}
			}
			if tries <= cutOff {
				t.Errorf("%d tries while unreachable for %d host-operators: nobody retried", tries, cutOff)
			}
			if tc.ignoredCut && ignoredCut == 0 {
				t.Error("Bytespider made no request while robots.txt was unreachable for it")
			}
			if allowAllDisallowed == 0 {
				t.Error("no crawler made a request the version disallows on a 4xx copy")
			}
			t.Logf("%d tries while unreachable, Bytespider's requests then %d; %d requests on 4xx copies, %d of them disallowed by the version", tries, ignoredCut, allowAll, allowAllDisallowed)
		})
	}
}

// TestPlanRobots plays planRobots on hand-made request times (minutes
// after 2026-10-22T00:00:00Z, the third robots.txt version in effect,
// which disallows GPTBot everything) against one outage from minute 60 to
// minute 240, and lists what it keeps: "F" a /robots.txt fetch, "." another
// request. The retry waits 55 to 65 minutes, so no time here falls where
// the draw decides.
func TestPlanRobots(t *testing.T) {
	t0 := time.Date(2026, 10, 22, 0, 0, 0, 0, time.UTC).Unix()
	for _, tc := range []struct {
		name   string
		status int
		times  map[string][]int // by actor
		want   []string         // actor@minute and F or .
	}{
		{
			name:   "503: the operator's crawlers stay silent together and retry; Bytespider crawls on",
			status: 503,
			times: map[string][]int{
				"Googlebot smartphone": {0, 70, 100, 130, 160, 200, 250},
				"Googlebot desktop":    {90, 170, 230, 255},
				"Bytespider":           {100, 110, 170, 180, 245, 250},
			},
			want: []string{
				"Googlebot smartphone@0 F",
				"Googlebot smartphone@70 .",  // Google not yet answered 503
				"Googlebot desktop@90 F",     // 503: Google cut off
				"Bytespider@100 F",           // 503 for ByteDance
				"Bytespider@110 .",           // ignores it
				"Googlebot smartphone@160 F", // 70 min after Google's last try: retry, 503
				"Bytespider@170 F",           // 70 min after its try: retry, 503
				"Bytespider@180 .",           //
				"Googlebot desktop@230 F",    // 70 min after the smartphone's try: 503
				"Bytespider@245 F",           // at or after the outage's end: 200
				"Bytespider@250 .",           //
				"Googlebot smartphone@250 F", // 20 min after the last try, but the outage is over: 200
				"Googlebot desktop@255 .",    // Google answered 200: its own copy again
			}, // dropped: smartphone@100, @130 (Google cut off, tried < 55 min ago), desktop@170, smartphone@200
		},
		{
			name:   "429 is unreachable too",
			status: 429,
			times: map[string][]int{
				"Googlebot-Image":   {80, 90, 150, 250},
				"Googlebot desktop": {0, 100, 260},
			},
			want: []string{
				"Googlebot desktop@0 F",
				"Googlebot-Image@80 F",  // 429: Google cut off
				"Googlebot-Image@150 F", // retry
				"Googlebot-Image@250 F", // the outage is over: 200
				"Googlebot desktop@260 .",
			},
		},
		{
			name:   "404: allow all until the first request at or after the outage's end; the operator's others keep their copies",
			status: 404,
			times: map[string][]int{
				"Googlebot smartphone": {0, 90, 130, 300},
				"Googlebot desktop":    {100, 120, 245, 250},
				"GPTBot":               {110, 130, 200, 250, 260},
			},
			want: []string{
				"Googlebot smartphone@0 F",   //
				"Googlebot smartphone@90 .",  // its own copy
				"Googlebot desktop@100 F",    // 404: allow all
				"GPTBot@110 F",               // 404: allow all (the third version disallows it everything)
				"Googlebot desktop@120 .",    //
				"GPTBot@130 .",               //
				"Googlebot smartphone@130 .", // its own copy still
				"GPTBot@200 .",               //
				"Googlebot desktop@245 F",    // at or after the outage's end: 200
				"GPTBot@250 F",               // 200: disallowed everything again
				"Googlebot desktop@250 .",    //
				"Googlebot smartphone@300 .", // its own schedule: no fetch due
			}, // dropped: GPTBot@260
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &generator{cfg: Config{Start: time.Unix(t0, 0), End: time.Unix(t0+86400, 0)}}
			hp := &hostPlan{host: DefaultHost, versions: Robots(DefaultHost),
				outages: []outage{{start: t0 + 60*60, end: t0 + 240*60, status: tc.status}}}
			profs := bots()
			var plans []*botPlan
			for pi := range profs {
				p := &profs[pi]
				mins, ok := tc.times[p.actor]
				if !ok {
					continue
				}
				a := &actor{hp: hp, prof: p, rng: g.newRand(0, uint64(pi)+1), fetchVer: -1, groups: groupCache{}}
				bp := &botPlan{a: a, id: g.addActor(a)}
				for _, m := range mins {
					bp.times = append(bp.times, t0+int64(m)*60)
					bp.starts = append(bp.starts, true)
				}
				plans = append(plans, bp)
			}
			if len(plans) != len(tc.times) {
				t.Fatalf("%d of the actors %v found", len(plans), tc.times)
			}
			n := g.planRobots(plans)
			var got []string
			for _, ev := range g.events {
				mark := "."
				if ev.flags&flagFetch != 0 {
					mark = "F"
				}
				got = append(got, g.actors[ev.actor].prof.actor+"@"+strconv.FormatInt((ev.t-t0)/60, 10)+" "+mark)
			}
			want := slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if n != len(g.events) || !slices.Equal(got, want) {
				t.Errorf("kept %d:\n got %q\nwant %q", n, got, want)
			}
		})
	}
}

// Outages change nothing before they start: the crawlers' and scripts'
// requests before the first one are those of the same month without
// outages (browser sessions, which fill the lines the crawlers leave, may
// differ anywhere).
func TestOutagesChangeNothingBefore(t *testing.T) {
	with := SampleConfig()
	without := with
	without.RobotsOutages = nil
	first := with.RobotsOutages[0].Start.Unix()
	bots := func(cfg Config) []Request {
		var out []Request
		for _, r := range collect(t, cfg) {
			if r.Bot != "" && r.Unix < first {
				r.Referer = nil
				out = append(out, r)
			}
		}
		return out
	}
	a, b := bots(with), bots(without)
	if len(a) != len(b) {
		t.Fatalf("%d crawler requests before the first outage, %d without outages", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Unix != y.Unix || x.Actor != y.Actor || string(x.Target) != string(y.Target) || x.Status != y.Status ||
			x.Bytes != y.Bytes || x.ClientIP != y.ClientIP || x.UserAgent != y.UserAgent || x.Protocol != y.Protocol || x.Method != y.Method {
			t.Fatalf("request %d before the first outage: %+v, without outages %+v", i, x, y)
		}
	}
	if len(a) < 10000 {
		t.Errorf("only %d crawler requests before the first outage", len(a))
	}
}
