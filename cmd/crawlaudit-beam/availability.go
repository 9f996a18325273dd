package main

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/report"
)

// robots.txt as the crawlers met it (contract §12): the definitions of
// queries/availability.sql, in Go, for the pipeline. The periods depend on
// the /robots.txt responses of every crawler of an operator on a host, in
// every input: they are found after a GroupByKey of their own (by host and
// operator), and every key's requests are then judged against them.

// Durations of queries/availability.sql (its INTERVALs, counted as DuckDB
// counts them under the time zone UTC).
const (
	unreachableMax = 30 * 24 * time.Hour // an unreachable period ends 30 days after it began
	googleDisallow = 12 * time.Hour      // under --spec google, an unreachable robots.txt disallows for 12 h
)

// Kinds of a period (report.RobotsPeriod.Kind), and the state of a 2xx.
const (
	stateOK          = "ok"
	stateUnreachable = report.PeriodUnreachable
	stateUnavailable = report.PeriodUnavailable
)

// availKey is what availability is kept by: a host and an operator (a bot
// without an operator is its own).
type availKey struct {
	Host     string `json:"host"`
	Operator string `json:"operator"`
}

// availOperator returns the operator availability is kept by for a bot:
// its operator, or its name when it has none.
func availOperator(bot, operator string) string { return cmp.Or(operator, bot) }

// fetchEvent is one response to /robots.txt that can open or close a
// period: a request for it by a crawler that is not spoofed nor a
// user-triggered fetcher.
type fetchEvent struct {
	TS     int64  `json:"ts"` // Unix µs
	Order  int64  `json:"order"`
	Line   int64  `json:"line"`
	Status int32  `json:"status"`
	Bot    string `json:"bot"`
	File   string `json:"file"`
}

// fetchState returns the state a response with status opens: ok for a
// 2xx, unreachable for a 5xx or 429, unavailable for another 4xx; "" for
// the others (1xx, 3xx, no status), which change nothing.
func fetchState(status int32, hasStatus bool) string {
	switch {
	case !hasStatus:
		return ""
	case status >= 200 && status <= 299:
		return stateOK
	case status >= 500 && status <= 599 || status == 429:
		return stateUnreachable
	case status >= 400 && status <= 499:
		return stateUnavailable
	}
	return ""
}

// period is one period in which robots.txt was unreachable or unavailable
// for an operator on a host.
type period struct {
	availKey
	Kind string `json:"kind"`
	From int64  `json:"from"` // Unix µs
	// To is when it ended; HasTo false: it lasts past the logs' end.
	To    int64 `json:"to"`
	HasTo bool  `json:"has_to"`
	// The response that opened it.
	Status int32  `json:"status"`
	Bot    string `json:"bot"`
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Order  int64  `json:"order"`
}

// id names a period among all of them.
func (p *period) id() string {
	return p.Host + "\x00" + p.Operator + "\x00" + time.UnixMicro(p.From).UTC().Format(time.RFC3339Nano) + "\x00" + p.File + "\x00" + strconv.FormatInt(p.Line, 10)
}

// periodsOf returns the periods of one host and operator from its
// responses, as availability.sql makes them: the responses in time order
// (then file, then line), those that change nothing left out; a period
// starts at each response whose state differs from the previous one's,
// and lasts until the next start; an unreachable one at most 30 days
// (unreachableMax), when those 30 days end before the last bot request
// of the audit (maxTS, Unix µs). Periods of the state ok are not kept.
func periodsOf(key availKey, events []fetchEvent, maxTS int64) []period {
	ev := slices.Clone(events)
	slices.SortFunc(ev, func(a, b fetchEvent) int {
		return cmp.Or(cmp.Compare(a.TS, b.TS), cmp.Compare(a.Order, b.Order), cmp.Compare(a.Line, b.Line))
	})
	type start struct {
		fetchEvent
		state string
	}
	var starts []start
	prev := ""
	for _, e := range ev {
		st := fetchState(e.Status, true)
		if st == "" {
			continue
		}
		if st != prev {
			starts = append(starts, start{e, st})
		}
		prev = st
	}
	var out []period
	for i, s := range starts {
		if s.state == stateOK {
			continue
		}
		p := period{availKey: key, Kind: s.state, From: s.TS, Status: s.Status, Bot: s.Bot, File: s.File, Line: s.Line, Order: s.Order}
		hasNext := i+1 < len(starts)
		var next int64
		if hasNext {
			next = starts[i+1].TS
		}
		end := s.TS + unreachableMax.Microseconds()
		if s.state == stateUnreachable && (!hasNext || next > end) && end <= maxTS {
			p.To, p.HasTo = end, true
		} else if hasNext {
			p.To, p.HasTo = next, true
		}
		out = append(out, p)
	}
	return out
}

// periodCount is what one key's requests add to a period's counts.
type periodCount struct {
	ID       string `json:"id"`
	Requests int64  `json:"requests"`
	Affected int64  `json:"affected"`
}

// applyAvailability changes the verdicts of k's requests on host that a
// period of their operator covers, as availability.sql does, and returns
// what they add to each period's counts. Only the operator's own requests
// count: none of a spoofed key, of a user-triggered fetcher, or for
// /robots.txt itself. A request is covered by the latest period of its
// host and operator that began at or before it, until that period's end:
// while unreachable, every request becomes disallowed_unreachable (under
// --spec google only in the first 12 hours); while unavailable, a
// disallowed request (in grace or not) becomes allowed_unavailable.
// periods are those of host (any operator), in any order.
func applyAvailability(key botKey, k *keyRows, periods []period, google bool) []periodCount {
	if key.Identity == 2 || len(periods) == 0 {
		return nil
	}
	byOp := map[string][]period{}
	for _, p := range periods {
		if p.Host == key.Host {
			byOp[p.Operator] = append(byOp[p.Operator], p)
		}
	}
	for _, ps := range byOp {
		slices.SortFunc(ps, func(a, b period) int {
			return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Order, b.Order), cmp.Compare(a.Line, b.Line))
		})
	}
	counts := map[string]*periodCount{}
	var ids []string
	for i := range k.len() {
		if k.robotsFetch[i] || k.userTriggered[i] {
			continue
		}
		ps := byOp[availOperator(key.Bot, k.operator[i])]
		// The latest period that began at or before the request.
		j := latestPeriod(ps, k.ts[i])
		if j < 0 {
			continue
		}
		p := &ps[j]
		if p.HasTo && k.ts[i] >= p.To {
			continue
		}
		id := p.id()
		c := counts[id]
		if c == nil {
			c = &periodCount{ID: id}
			counts[id] = c
			ids = append(ids, id)
		}
		c.Requests++
		switch {
		case p.Kind == stateUnreachable && (!google || k.ts[i] < p.From+googleDisallow.Microseconds()):
			k.verdict[i] = audit.VerdictUnreachable
			c.Affected++
		case p.Kind == stateUnavailable && (k.verdict[i] == audit.VerdictDisallowed || k.verdict[i] == audit.VerdictInGrace):
			k.verdict[i] = audit.VerdictUnavailable
			c.Affected++
		}
	}
	out := make([]periodCount, 0, len(ids))
	for _, id := range ids {
		out = append(out, *counts[id])
	}
	return out
}

// latestPeriod returns the index of the last period of ps (sorted by From) that
// began at or before ts, or -1.
func latestPeriod(ps []period, ts int64) int {
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ps[m].From <= ts {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// robotsStatus returns summary.json's robots_status: the periods with
// their counts, in the order of the audit's (host, operator, start, line).
func robotsStatus(periods []period, counts []periodCount) []report.RobotsPeriod {
	sum := map[string]periodCount{}
	for _, c := range counts {
		s := sum[c.ID]
		s.Requests += c.Requests
		s.Affected += c.Affected
		sum[c.ID] = s
	}
	ps := slices.Clone(periods)
	slices.SortFunc(ps, func(a, b period) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Operator, b.Operator), cmp.Compare(a.From, b.From), cmp.Compare(a.Line, b.Line))
	})
	out := []report.RobotsPeriod{}
	for _, p := range ps {
		c := sum[p.id()]
		rp := report.RobotsPeriod{Host: p.Host, Operator: p.Operator, Kind: p.Kind, From: time.UnixMicro(p.From).UTC(),
			Status: int(p.Status), Bot: p.Bot, File: p.File, Line: p.Line, Requests: c.Requests, Affected: c.Affected}
		if p.HasTo {
			t := time.UnixMicro(p.To).UTC()
			rp.To = &t
		}
		out = append(out, rp)
	}
	return out
}
