package measure

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestParseRetryAfter: the two forms of RFC 9110 §10.2.3, with the
// examples of that section, and the three date forms a recipient must
// accept (RFC 9110 §5.6.7, whose examples these dates are).
func TestParseRetryAfter(t *testing.T) {
	at := time.Date(1994, 11, 6, 8, 47, 49, 0, time.UTC).UnixMicro() // 2 min before the example date
	for _, c := range []struct {
		v    string
		want int32
		ok   bool
		src  string
	}{
		{"120", 120, true, "RFC 9110 §10.2.3: Retry-After: 120"},
		{"Sun, 06 Nov 1994 08:49:37 GMT", 108, true, "RFC 9110 §5.6.7 IMF-fixdate"},
		{"Sunday, 06-Nov-94 08:49:37 GMT", 108, true, "RFC 9110 §5.6.7 obsolete RFC 850 format"},
		{"Sun Nov  6 08:49:37 1994", 108, true, "RFC 9110 §5.6.7 ANSI C asctime() format"},
		{"Sun, 06 Nov 1994 08:00:00 GMT", 0, true, "a date already past: retry now"},
		{"0", 0, true, "delay-seconds = 1*DIGIT"},
		{"99999999999999999999", maxWaitS, true, "bounded, never overflows"},
		{"-5", 0, false, "not 1*DIGIT"},
		{"1.5", 0, false, "not 1*DIGIT"},
		{"soon", 0, false, "neither form"},
		{"", 0, false, "absent"},
	} {
		got, ok := ParseRetryAfter(c.v, at)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: ParseRetryAfter(%q) = %d, %v; want %d, %v", c.src, c.v, got, ok, c.want, c.ok)
		}
	}
}

// TestHasContact: draft-illyes-webbotauth-cbcp-01 §2.2's example
// User-Agent carries a URL; §2.6 asks for a contact address.
func TestHasContact(t *testing.T) {
	for _, c := range []struct {
		ua   string
		want bool
	}{
		{"Mozilla/5.0 (compatible; ExampleBot/0.1; +https://www.example.com/bot.html)", true}, // §2.2's example
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true},
		{"Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)", true},
		{"Mozilla/5.0 (compatible; ResearchBot/1.0; crawler@example.org)", true},
		{"ExampleBot/1.0 (see www.example.net)", true},
		{"python-requests/2.32.3", false},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36", false},
		{"curl/8.5.0", false},
	} {
		if got := HasContact(c.ua); got != c.want {
			t.Errorf("HasContact(%q) = %v, want %v", c.ua, got, c.want)
		}
	}
}

// TestConduct: the measures of draft-illyes-webbotauth-cbcp-01 §2.3 (back
// off on the signals of RFC 9110 §15.6) and §2.4 (support caching: a
// revalidation answered 304, RFC 9110 §15.4.5), on a crawler that hammers
// a failing site and one that revalidates politely, given out of order.
func TestConduct(t *testing.T) {
	s := int64(1_000_000)
	h := 3600 * s
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	var hammer Conduct
	// 503 with Retry-After: 120 at t0; it comes back after 10 s, 60 s
	// (inside the wait: two requests), then after 200 s (outside).
	for _, r := range []ConductRequest{
		{US: t0 + 200*s, URL: 1, Status: 200, WaitS: -1},
		{US: t0 + 10*s, URL: 1, Status: 503, WaitS: 120},
		{US: t0, URL: 1, Status: 503, WaitS: 120},
		{US: t0 + 60*s, URL: 2, Status: 503, WaitS: -1},
		// a 429 without Retry-After: 1 s; the request 1 s later counts,
		// the one 2 s later not (the 503 at +60 s asked for 1 s only, but
		// +10's wait of 120 s runs to +130 s: +61 and +62 count).
		{US: t0 + 61*s, URL: 3, Status: 429, WaitS: -1},
		{US: t0 + 62*s, URL: 3, Status: 200, WaitS: -1},
	} {
		hammer.Add(r)
	}
	got := hammer.Finish()
	// Inside a wait: +10 (t0's), +60, +61, +62 (+10's runs to +130).
	if got.NoBackoff != 4 {
		t.Errorf("hammer: no_backoff %d, want 4", got.NoBackoff)
	}
	// URL 1 thrice (two repeats: 10 s, 190 s), URL 3 twice (1 s).
	if got.RepeatFetches != 3 || got.NotModified != 0 || !got.HasRefetch || got.RefetchMedianUS != float64(10*s) {
		t.Errorf("hammer: %+v", got)
	}

	var polite Conduct
	// One URL fetched daily: 200 then 304s; another twice a day apart
	// with a 200: gaps 24, 24, 24, 12 h → median 24 h.
	for _, r := range []ConductRequest{
		{US: t0 + 48*h, URL: 7, Status: 304, WaitS: -1},
		{US: t0, URL: 7, Status: 200, WaitS: -1},
		{US: t0 + 24*h, URL: 7, Status: 304, WaitS: -1},
		{US: t0 + 72*h, URL: 7, Status: 304, WaitS: -1},
		{US: t0 + 1*h, URL: 8, Status: 200, WaitS: -1},
		{US: t0 + 13*h, URL: 8, Status: 200, WaitS: -1},
	} {
		polite.Add(r)
	}
	got = polite.Finish()
	if got.NoBackoff != 0 || got.RepeatFetches != 4 || got.NotModified != 3 || Hours(got.RefetchMedianUS) != 24 {
		t.Errorf("polite: %+v", got)
	}

	// Requests at the instant of an error answer are not after it.
	var same Conduct
	same.Add(ConductRequest{US: t0, URL: 1, Status: 503, WaitS: 60})
	same.Add(ConductRequest{US: t0, URL: 2, Status: 200, WaitS: -1})
	if got := same.Finish(); got.NoBackoff != 0 || got.HasRefetch {
		t.Errorf("same instant: %+v", got)
	}
	var none Conduct
	if got := none.Finish(); got != (ConductResult{}) {
		t.Errorf("no request: %+v", got)
	}
}

// FuzzParseRetryAfter: any header value, never a panic, never a wait
// outside [0, maxWaitS].
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "-", "", "99999999999999999999999"} {
		f.Add(s, int64(784111777000000))
	}
	f.Fuzz(func(t *testing.T, v string, at int64) {
		w, ok := ParseRetryAfter(v, at)
		if w < 0 || w > maxWaitS || !ok && w != 0 {
			t.Errorf("ParseRetryAfter(%q, %d) = %d, %v", v, at, w, ok)
		}
	})
}

// naiveConduct is Conduct's definition written plainly, O(n²): the
// reference for TestConductRandom.
func naiveConduct(reqs []ConductRequest) (noBackoff, repeats, notModified int64, gaps []uint64) {
	for _, r := range reqs {
		for _, e := range reqs {
			wait := int64(DefaultWaitUS)
			if e.WaitS >= 0 {
				wait = int64(e.WaitS) * 1_000_000
			}
			if IsErrorAnswer(int32(e.Status)) && e.US < r.US && r.US <= e.US+wait {
				noBackoff++
				break
			}
		}
	}
	byURL := map[uint64][]ConductRequest{}
	for _, r := range reqs {
		byURL[r.URL] = append(byURL[r.URL], r)
	}
	for _, rs := range byURL {
		// Insertion sort by time, a 304 after another answer at the same instant.
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && (rs[j].US < rs[j-1].US || rs[j].US == rs[j-1].US && rs[j].Status != 304 && rs[j-1].Status == 304); j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		for i := 1; i < len(rs); i++ {
			repeats++
			if rs[i].Status == 304 {
				notModified++
			}
			gaps = append(gaps, uint64(rs[i].US-rs[i-1].US))
		}
	}
	return
}

// TestConductRandom holds Finish (its packed keys, and its fallback for
// URL numbers and spans the keys cannot hold) to the plain definition, on
// random requests with ties at one instant.
func TestConductRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9110, 1023))
	statuses := []int16{200, 200, 304, 304, 404, 429, 503, -1}
	for round := range 300 {
		n := 1 + rng.IntN(200)
		span := int64(3600_000_000)
		if round%5 == 0 {
			n += 2000 // the radix sorts' lengths
		}
		urlHigh := uint64(0)
		switch round % 3 {
		case 1:
			span = 1 << 43 // past the packed keys' 2^42 µs
		case 2:
			urlHigh = 1 << 63 // hashed targets: numbered densely
		}
		var c Conduct
		var reqs []ConductRequest
		for range n {
			r := ConductRequest{US: 1_790_000_000_000_000 + rng.Int64N(span)/1_000_000*1_000_000, URL: urlHigh | uint64(rng.IntN(12)),
				Status: statuses[rng.IntN(len(statuses))], WaitS: int32(rng.IntN(4)) - 1}
			if rng.IntN(4) == 0 && len(reqs) > 0 {
				r.US = reqs[rng.IntN(len(reqs))].US // a tie
			}
			reqs = append(reqs, r)
			c.Add(r)
		}
		got := c.Finish()
		nb, rep, nm, gaps := naiveConduct(reqs)
		want := withMedian(ConductResult{NoBackoff: nb, RepeatFetches: rep, NotModified: nm}, gaps, make([]uint64, len(gaps)))
		if got != want {
			t.Fatalf("round %d (%d requests): Finish %+v, definition %+v", round, n, got, want)
		}
	}
}
