package measure

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestMergeEqualsAdd: a measure gathered in two parts and merged finishes
// as the same measure gathered whole, as the Beam pipeline's combining
// relies on; random requests, split at random.
func TestMergeEqualsAdd(t *testing.T) {
	limits := []Limit{{HasDelay: true, CrawlDelay: 2}, {HasRate: true, RateN: 2, RateS: 10}, {HasDelay: true, CrawlDelay: 1, DelayIgnored: true}}
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 23))
		var whole, a, b Windows
		var rWhole, rA, rB Reaction
		var avWhole, avA, avB Availability
		for i := range 200 {
			us := int64(rng.IntN(60)) * 500_000
			q := Request{US: us, File: int32(rng.IntN(2)), Line: int64(i), Limit: int32(rng.IntN(len(limits)+1) - 1)}
			fetch, rule := rng.IntN(5) == 0, int32(rng.IntN(4)-1)
			resp := Response{US: us, File: int64(q.File), Line: q.Line, Status: []int32{200, 503, 404, 301}[rng.IntN(4)]}
			whole.Add(q)
			rWhole.Add(us, fetch, rule)
			avWhole.Add(resp)
			if rng.IntN(2) == 0 {
				a.Add(q)
				rA.Add(us, fetch, rule)
				avA.Add(resp)
			} else {
				b.Add(q)
				rB.Add(us, fetch, rule)
				avB.Add(resp)
			}
		}
		a.Merge(&b)
		rA.Merge(&rB)
		avA.Merge(&avB)
		for _, spoofed := range []bool{false, true} {
			wb, wl := whole.Breaches(limits, spoofed)
			gb, gl := a.Breaches(limits, spoofed)
			if wb != gb || wl != gl {
				t.Fatalf("seed %d: windows merged %+v %t, whole %+v %t", seed, gb, gl, wb, wl)
			}
		}
		added := func(rule int32) bool { return rule != 1 }
		if w, g := rWhole.Finish(added, nil), rA.Finish(added, nil); w != g {
			t.Fatalf("seed %d: reaction merged %+v, whole %+v", seed, g, w)
		}
		if w, g := avWhole.Periods(1<<62), avA.Periods(1<<62); !reflect.DeepEqual(w, g) {
			t.Fatalf("seed %d: periods merged %+v, whole %+v", seed, g, w)
		}
	}
}

// TestPeriods: the periods of availability.sql from one operator's
// responses, worked out by hand; h is an hour in µs.
func TestPeriods(t *testing.T) {
	const h = int64(time.Hour / time.Microsecond)
	d30 := UnreachableMax.Microseconds()
	for _, tc := range []struct {
		name      string
		responses []Response
		maxUS     int64
		want      []Period
	}{
		{"all ok", []Response{{US: 0, Status: 200}, {US: h, Status: 304}}, 10 * h, nil},
		{"503 until the next 200", []Response{{US: 0, Status: 200}, {US: h, Status: 503}, {US: 2 * h, Status: 500}, {US: 3 * h, Status: 200}}, 10 * h,
			[]Period{{Kind: StateUnreachable, From: h, To: 3 * h, Opened: Response{US: h, Status: 503}}}},
		{"404 open past the end", []Response{{US: h, Status: 404, Line: 7}, {US: 2 * h, Status: 301}}, 10 * h,
			[]Period{{Kind: StateUnavailable, From: h, Open: true, Opened: Response{US: h, Status: 404, Line: 7}}}},
		{"unreachable ends after 30 days when the logs go on", []Response{{US: 0, Status: 429}}, d30 + h,
			[]Period{{Kind: StateUnreachable, From: 0, To: d30, Opened: Response{Status: 429}}}},
		{"unreachable open when the logs end first", []Response{{US: 0, Status: 503}}, d30 - 1,
			[]Period{{Kind: StateUnreachable, From: 0, Open: true, Opened: Response{Status: 503}}}},
		{"ties in file and line order", []Response{{US: h, File: 2, Status: 200}, {US: h, File: 1, Status: 404}}, 10 * h,
			[]Period{{Kind: StateUnavailable, From: h, To: h, Opened: Response{US: h, File: 1, Status: 404}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a Availability
			for _, r := range tc.responses {
				a.Add(r)
			}
			if got := a.Periods(tc.maxUS); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("periods %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestCoveringAffects: which period covers a request, and whether it
// changes its verdict; 12 hours is GoogleDisallow.
func TestCoveringAffects(t *testing.T) {
	h12 := GoogleDisallow.Microseconds()
	ps := []Period{
		{Kind: StateUnreachable, From: 100, To: 200},
		{Kind: StateUnavailable, From: 300, To: 400},
		{Kind: StateUnreachable, From: 500, Open: true},
	}
	for _, tc := range []struct {
		name               string
		us                 int64
		disallowed, google bool
		covering           int
		affects            bool
	}{
		{"before any period", 99, true, false, -1, false},
		{"an unreachable period's start", 100, false, false, 0, true},
		{"its end (exclusive)", 200, true, false, -1, false},
		{"unavailable: a disallowed request", 350, true, false, 1, true},
		{"unavailable: an allowed request", 350, false, false, 1, false},
		{"an open period", 500 + 2*h12, false, false, 2, true},
		{"google: its first 12 hours", 500 + h12 - 1, false, true, 2, true},
		{"google: after them, the last copy", 500 + h12, true, true, 2, false},
	} {
		i := Covering(ps, tc.us)
		affects := i >= 0 && ps[i].Affects(tc.us, tc.disallowed, tc.google)
		if i != tc.covering || affects != tc.affects {
			t.Errorf("%s: covering %d, affects %t; want %d, %t", tc.name, i, affects, tc.covering, tc.affects)
		}
	}
}

// TestVersionChanges: a change's window ends 30 days after it or at the
// next change, and the bots active around it are those within 30 days
// either side, both ends included.
func TestVersionChanges(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	got := VersionChanges([]time.Time{t0, t0.Add(10 * day), t0.Add(15 * day)})
	if len(got) != 2 || got[0].K != 1 || !got[0].Until.Equal(t0.Add(15*day)) || !got[1].Until.Equal(t0.Add(45*day)) {
		t.Fatalf("changes %+v", got)
	}
	c := got[0]
	for _, tc := range []struct {
		at               time.Time
		active, inWindow bool
	}{
		{t0.Add(-20 * day), true, false},
		{t0.Add(-20*day - time.Microsecond), false, false},
		{t0.Add(10 * day), true, true},
		{t0.Add(15*day - time.Microsecond), true, true},
		{t0.Add(15 * day), true, false},
		{t0.Add(40 * day), true, false},
		{t0.Add(40*day + time.Microsecond), false, false},
	} {
		us := tc.at.UnixMicro()
		if c.Active(us) != tc.active || c.InWindow(us) != tc.inWindow {
			t.Errorf("%s: active %t, in window %t; want %t, %t", tc.at, c.Active(us), c.InWindow(us), tc.active, tc.inWindow)
		}
	}
}

// TestBreachesByKey: BreachesBy returns Breaches's totals, and the flags
// it hands per Key add up to them: the Crawl-delay breaches (not those of a
// Crawl-delay the operator ignores, unless spoofed) and the Request-rate
// breaches, each request counted once under its own Key. A case worked
// out by hand first: Crawl-delay 2 s, requests at 0, 1 s (from key 7: a
// breach) and 4 s (key 8: none).
func TestBreachesByKey(t *testing.T) {
	limits := []Limit{{HasDelay: true, CrawlDelay: 2}, {HasRate: true, RateN: 2, RateS: 10}, {HasDelay: true, CrawlDelay: 1, DelayIgnored: true}}
	var w Windows
	w.Add(Request{US: 0, Limit: 0, Key: 7})
	w.Add(Request{US: 1_000_000, Line: 1, Limit: 0, Key: 7})
	w.Add(Request{US: 4_000_000, Line: 2, Limit: 0, Key: 8})
	got := map[int32][2]int64{}
	b, _ := w.BreachesBy(limits, false, func(k int32, cd, rr bool) {
		n := got[k]
		if cd {
			n[0]++
		}
		if rr {
			n[1]++
		}
		got[k] = n
	})
	if want := map[int32][2]int64{7: {1, 0}}; !reflect.DeepEqual(got, want) || b.CrawlDelay != 1 {
		t.Fatalf("by key %v (total %+v), want %v", got, b, want)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 29))
		var w Windows
		for i := range 200 {
			w.Add(Request{US: int64(rng.IntN(60)) * 500_000, File: int32(rng.IntN(2)), Line: int64(i),
				Limit: int32(rng.IntN(len(limits)+1) - 1), Key: int32(rng.IntN(5))})
		}
		for _, spoofed := range []bool{false, true} {
			want, wl := w.Breaches(limits, spoofed)
			var cd, rr int64
			got, gl := w.BreachesBy(limits, spoofed, func(k int32, c, r bool) {
				if k < 0 || k >= 5 {
					t.Fatalf("seed %d: key %d was never given", seed, k)
				}
				if c {
					cd++
				}
				if r {
					rr++
				}
			})
			if got != want || gl != wl {
				t.Fatalf("seed %d spoofed %t: BreachesBy %+v %t, Breaches %+v %t", seed, spoofed, got, gl, want, wl)
			}
			if cd != want.CrawlDelay || rr != want.RequestRate {
				t.Fatalf("seed %d spoofed %t: by key %d crawl-delay and %d request-rate breaches, totals %+v", seed, spoofed, cd, rr, want)
			}
			if want.CrawlDelay == 0 || want.RequestRate == 0 {
				t.Fatalf("seed %d: the requests breached %+v: the test measured nothing", seed, want)
			}
		}
	}
}

// TestWindowsBlocks: a key with more requests than Windows keeps in its
// first slice (6,000: that slice and blocks of 1,024, 2,048 and 4,096) is
// measured as window_measures defines it, worked out here by brute force
// over the requests sorted by time, file and line: taken in order, and
// shuffled.
func TestWindowsBlocks(t *testing.T) {
	limits := []Limit{{HasDelay: true, CrawlDelay: 2}, {HasRate: true, RateN: 3, RateS: 10}, {HasDelay: true, CrawlDelay: 1, DelayIgnored: true}}
	rng := rand.New(rand.NewPCG(7, 31))
	sorted := make([]Request, 6000)
	us := int64(0)
	for i := range sorted {
		us += int64(rng.IntN(4)) * 500_000
		sorted[i] = Request{US: us, File: int32(rng.IntN(2)), Line: int64(i), Limit: int32(rng.IntN(len(limits)+1) - 1), Key: int32(i)}
	}
	slices.SortFunc(sorted, Compare)
	want := make([]Measure, len(sorted))
	for j, r := range sorted {
		m := &want[j]
		if j > 0 {
			m.GapUS, m.HasGap = r.US-sorted[j-1].US, true
		}
		if r.Limit < 0 {
			continue
		}
		l := limits[r.Limit]
		if l.HasDelay && m.HasGap && float64(m.GapUS) < l.CrawlDelay*1e6 {
			m.Unsupported, m.CrawlDelayBreach = l.DelayIgnored, !l.DelayIgnored
		}
		if l.HasRate {
			for _, o := range sorted {
				if o.US <= r.US && o.US >= r.US-(int64(l.RateS)*1_000_000-1) {
					m.RateCount++
				}
			}
			m.HasCount, m.RequestRateBreach = true, m.RateCount > int64(l.RateN)
		}
	}
	shuffled := slices.Clone(sorted)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for name, in := range map[string][]Request{"in order": sorted, "shuffled": shuffled} {
		var w Windows
		for _, r := range in {
			w.Add(r)
		}
		if w.Len() != len(in) {
			t.Fatalf("%s: Len %d, took %d", name, w.Len(), len(in))
		}
		j := 0
		limited := w.Each(limits, false, func(r Request, m Measure) {
			if r != sorted[j] || m != want[j] {
				t.Fatalf("%s: request %d is %+v measured %+v; want %+v measured %+v", name, j, r, m, sorted[j], want[j])
			}
			j++
		})
		if !limited || j != len(sorted) {
			t.Fatalf("%s: %d requests measured, limited %t; want %d, true", name, j, limited, len(sorted))
		}
	}
}
