package measure

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// ConductRequest is what Conduct keeps of one request of a key: its time,
// which URL it asked for (the caller's number for the target: the same
// target always gets the same number), its status (-1 when none was
// logged) and the wait its answer's Retry-After asked for (see
// ParseRetryAfter; -1 when none was logged or it could not be read).
type ConductRequest struct {
	US     int64 // Unix µs
	URL    uint64
	WaitS  int32 // seconds
	Status int16
}

// DefaultWaitUS is the wait after an error answer that carries no
// Retry-After: one second. A crawler that backs off at all waits longer
// than that before it asks again (draft-illyes-webbotauth-cbcp-01 §2.3 asks
// for back-off on the signals of RFC 9110 §15.6 without a figure).
const DefaultWaitUS = 1_000_000

// IsErrorAnswer reports whether a status tells the crawler to back off:
// 429 Too Many Requests (RFC 6585 §4) or any 5xx (RFC 9110 §15.6).
func IsErrorAnswer(status int32) bool {
	return status == 429 || status >= 500 && status <= 599
}

// ContactPattern matches a User-Agent that carries a way to reach the
// crawler's operator: a URL ("+https://example.com/bot.html",
// "www.example.com/bot") or an e-mail address
// (draft-illyes-webbotauth-cbcp-01 §2.2 and §2.6). It is RE2 syntax, so
// that Go and DuckDB's regexp_matches read it alike.
const ContactPattern = `(?i)(https?://[^\s;)]+|www\.[a-z0-9-]+\.[a-z]{2,}|[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,})`

var contactRE = regexp.MustCompile(ContactPattern)

// HasContact reports whether a User-Agent matches ContactPattern.
func HasContact(ua string) bool { return contactRE.MatchString(ua) }

// maxWaitS bounds a Retry-After's wait to a year: a larger one is a
// misconfiguration, and the bound keeps it in an int32.
const maxWaitS = 366 * 24 * 3600

// ParseRetryAfter reads a Retry-After header (RFC 9110 §10.2.3): either
// delay-seconds (1*DIGIT) or an HTTP-date, which is the wait from the
// answer's time atUS (the request's time: logs have no other). A date
// already past waits 0 s. The three date forms of RFC 9110 §5.6.7
// (IMF-fixdate and the obsolete RFC 850 and asctime forms) are accepted, as
// a recipient must. ok is false for anything else ("-", "soon", "-5").
func ParseRetryAfter(v string, atUS int64) (waitS int32, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		n := int64(0)
		for i := 0; i < len(v); i++ {
			c := v[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			if n < maxWaitS {
				n = n*10 + int64(c-'0')
			}
		}
		return int32(min(n, maxWaitS)), true
	}
	for _, layout := range httpDateLayouts {
		t, err := time.Parse(layout, v)
		if err != nil {
			continue
		}
		d := t.Unix() - floorDiv(atUS, 1_000_000)
		return int32(max(0, min(d, maxWaitS))), true
	}
	return 0, false
}

// httpDateLayouts are IMF-fixdate, RFC 850 and asctime (RFC 9110 §5.6.7).
var httpDateLayouts = []string{
	"Mon, 02 Jan 2006 15:04:05 GMT",
	"Monday, 02-Jan-06 15:04:05 GMT",
	"Mon Jan _2 15:04:05 2006",
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Conduct gathers one key's requests, in any order, for the measures of
// its conduct that need its history (queries/conduct.sql is the same
// definition over stored rows). The zero value is ready.
type Conduct struct {
	reqs []ConductRequest
}

// Add takes one request.
func (c *Conduct) Add(r ConductRequest) { c.reqs = append(c.reqs, r) }

// Len returns the number of requests taken.
func (c *Conduct) Len() int { return len(c.reqs) }

// Merge takes the requests of o.
func (c *Conduct) Merge(o *Conduct) { c.reqs = append(c.reqs, o.reqs...) }

// ConductResult is what Finish measures of a key's requests.
type ConductResult struct {
	// NoBackoff counts the requests sent while an earlier error answer
	// (IsErrorAnswer) asked the crawler to wait: after it, and no later
	// than its Retry-After (DefaultWaitUS without one). A request counts
	// once however many answers it ignored.
	NoBackoff int64
	// RepeatFetches counts the fetches of a URL after the key's first of
	// it; NotModified those of them answered 304.
	RepeatFetches, NotModified int64
	// RefetchMedianUS is the median time between consecutive fetches of
	// the same URL (the mean of the two middle ones for an even count);
	// HasRefetch is false when no URL was fetched twice.
	RefetchMedianUS float64
	HasRefetch      bool
}

// Finish measures the requests taken. It sorts them, so it is called once.
func (c *Conduct) Finish() ConductResult {
	var res ConductResult
	reqs := c.reqs
	// By time: the back-off. Requests at the instant of an error answer
	// are not after it (a log of whole seconds cannot order them).
	slices.SortFunc(reqs, func(a, b ConductRequest) int { return cmp.Compare(a.US, b.US) })
	deadline := int64(math.MinInt64)
	for i := 0; i < len(reqs); {
		j := i
		for j < len(reqs) && reqs[j].US == reqs[i].US {
			if reqs[j].US <= deadline {
				res.NoBackoff++
			}
			j++
		}
		for ; i < j; i++ {
			if r := reqs[i]; IsErrorAnswer(int32(r.Status)) {
				wait := int64(DefaultWaitUS)
				if r.WaitS >= 0 {
					wait = int64(r.WaitS) * 1_000_000
				}
				deadline = max(deadline, r.US+wait)
			}
		}
	}
	// By URL, then time: repeats, revalidations and refetch intervals.
	slices.SortFunc(reqs, func(a, b ConductRequest) int {
		if a.URL != b.URL {
			return cmp.Compare(a.URL, b.URL)
		}
		return cmp.Compare(a.US, b.US)
	})
	var gaps []int64
	for i := 1; i < len(reqs); i++ {
		if reqs[i].URL != reqs[i-1].URL {
			continue
		}
		res.RepeatFetches++
		if reqs[i].Status == 304 {
			res.NotModified++
		}
		gaps = append(gaps, reqs[i].US-reqs[i-1].US)
	}
	if len(gaps) > 0 {
		slices.Sort(gaps)
		m := len(gaps) / 2
		res.HasRefetch = true
		if len(gaps)%2 == 1 {
			res.RefetchMedianUS = float64(gaps[m])
		} else {
			res.RefetchMedianUS = (float64(gaps[m-1]) + float64(gaps[m])) / 2
		}
	}
	return res
}

// Hours returns µs as hours rounded to three decimals, as the summary
// shows them (queries/conduct.sql rounds alike).
func Hours(us float64) float64 { return math.Round(us/3.6e9*1000) / 1000 }

// StatusWait returns the Retry-After wait of a logged header value for
// ConductRequest.WaitS: -1 when absent or unreadable.
func StatusWait(v string, present bool, atUS int64) int32 {
	if !present {
		return -1
	}
	if w, ok := ParseRetryAfter(v, atUS); ok {
		return w
	}
	return -1
}

// URLHash numbers a target for ConductRequest.URL the same way in every
// process (FNV-1a, 64 bits), for callers that meet a bot's requests in
// separate processes (the Beam pipeline).
func URLHash(target string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(target); i++ {
		h ^= uint64(target[i])
		h *= 1099511628211
	}
	return h
}
