package measure

import (
	"cmp"
	"slices"
	"time"
)

// robots.txt as the crawlers met it (contract §12, RFC 9309 §2.3.1): the
// definitions of queries/availability.sql, from the /robots.txt responses
// of one host and operator (an operator's crawlers share one cached copy).

// Durations of availability.sql's INTERVALs, counted as DuckDB counts them
// under the time zone UTC.
const (
	// UnreachableMax is how long an unreachable robots.txt disallows
	// everything at most (RFC 9309 §2.3.1.4: "for a reasonably long
	// period of time", taken as 30 days).
	UnreachableMax = 30 * 24 * time.Hour
	// GoogleDisallow is how long it does under --spec google (Google's
	// robots.txt specification, "Handling of errors and HTTP status codes").
	GoogleDisallow = 12 * time.Hour
)

// State is what a /robots.txt response says of the file.
type State uint8

// The states of a response; StateNone changes nothing.
const (
	StateNone        State = iota // 1xx, 3xx, no status: the log does not show where a redirect led
	StateOK                       // 2xx
	StateUnreachable              // 5xx or 429 (RFC 9309 §2.3.1.4)
	StateUnavailable              // another 4xx (RFC 9309 §2.3.1.3)
)

// StateOf returns the state of a response with status (has false: no
// status).
func StateOf(status int32, has bool) State {
	switch {
	case !has:
		return StateNone
	case status >= 200 && status <= 299:
		return StateOK
	case status >= 500 && status <= 599 || status == 429:
		return StateUnreachable
	case status >= 400 && status <= 499:
		return StateUnavailable
	}
	return StateNone
}

// Response is one answer to /robots.txt of an operator's own crawler (not
// spoofed, not a user-triggered fetcher), which may open a period. File and
// Line order responses at one instant.
type Response struct {
	US     int64 // Unix µs
	File   int64
	Line   int64
	Status int32
	// Ref is the caller's, to find the response's bot and file again; not
	// compared.
	Ref int
}

// compareResponses orders responses by time, file and line.
func compareResponses(a, b Response) int {
	return cmp.Or(cmp.Compare(a.US, b.US), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
}

// Period is a time in which robots.txt was unreachable or unavailable for
// an operator on a host.
type Period struct {
	Kind State // StateUnreachable or StateUnavailable
	From int64 // Unix µs
	// To is when it ended; Open: it lasts past the logs' end.
	To   int64
	Open bool
	// Opened is the response that opened it.
	Opened Response
}

// Availability gathers one host and operator's responses, in any order.
// The zero value is ready.
type Availability struct {
	responses []Response
}

// Add takes one response; those that change nothing are dropped.
func (a *Availability) Add(r Response) {
	if StateOf(r.Status, true) != StateNone {
		a.responses = append(a.responses, r)
	}
}

// Merge takes o's responses.
func (a *Availability) Merge(o *Availability) { a.responses = append(a.responses, o.responses...) }

// Len returns the number of responses kept.
func (a *Availability) Len() int { return len(a.responses) }

// Periods returns the periods, by start, as availability.sql makes them:
// the responses in time order (then file, then line); a period starts at
// each response whose state differs from the previous one's and lasts
// until the next start, an unreachable one at most UnreachableMax when
// that end comes before the last bot request of the audit (maxUS).
// Periods of the state ok are not returned.
func (a *Availability) Periods(maxUS int64) []Period {
	slices.SortFunc(a.responses, compareResponses)
	type start struct {
		Response
		state State
	}
	var starts []start
	prev := StateNone
	for _, r := range a.responses {
		st := StateOf(r.Status, true)
		if st != prev {
			starts = append(starts, start{r, st})
		}
		prev = st
	}
	var out []Period
	for i, s := range starts {
		if s.state == StateOK {
			continue
		}
		p := Period{Kind: s.state, From: s.US, Open: true, Opened: s.Response}
		hasNext := i+1 < len(starts)
		var next int64
		if hasNext {
			next = starts[i+1].US
		}
		end := s.US + UnreachableMax.Microseconds()
		if s.state == StateUnreachable && (!hasNext || next > end) && end <= maxUS {
			p.To, p.Open = end, false
		} else if hasNext {
			p.To, p.Open = next, false
		}
		out = append(out, p)
	}
	return out
}

// Covering returns the index of the period of ps (by start) that covers a
// request at us: the last that began at or before it, while it lasted; -1
// for none.
func Covering(ps []Period, us int64) int {
	i, _ := slices.BinarySearchFunc(ps, us, func(p Period, us int64) int {
		if p.From <= us {
			return -1
		}
		return 1
	})
	i--
	if i < 0 || !ps[i].Open && us >= ps[i].To {
		return -1
	}
	return i
}

// Affects reports whether p, which covers a request at us (not for
// /robots.txt), changes its verdict: an unreachable robots.txt makes every
// request disallowed_unreachable (under --spec google, google true, only
// in its first GoogleDisallow, after which the last copy applies); an
// unavailable one makes a disallowed request (in grace or not:
// disallowed) allowed_unavailable.
func (p *Period) Affects(us int64, disallowed, google bool) bool {
	if p.Kind == StateUnreachable {
		return !google || us < p.From+GoogleDisallow.Microseconds()
	}
	return disallowed
}
