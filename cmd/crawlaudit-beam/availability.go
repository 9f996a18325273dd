package main

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/report"
)

// robots.txt as the crawlers met it (RFC 9309 §2.3.1), for the pipeline, with
// the definitions of package measure. The periods depend on
// the /robots.txt responses of every crawler of an operator on a host, in
// every input: they are found after a GroupByKey of their own (by host and
// operator), and every key's requests are then judged against them.

// kindNames are the names of the periods' kinds (report.RobotsPeriod.Kind).
var kindNames = map[measure.State]string{
	measure.StateUnreachable: report.PeriodUnreachable,
	measure.StateUnavailable: report.PeriodUnavailable,
}

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
// responses (measure.Availability), maxTS being the last bot request of
// the audit (Unix µs).
func periodsOf(key availKey, events []fetchEvent, maxTS int64) []period {
	var a measure.Availability
	for i, e := range events {
		a.Add(measure.Response{US: e.TS, File: e.Order, Line: e.Line, Status: e.Status, Ref: i})
	}
	var out []period
	for _, mp := range a.Periods(maxTS) {
		e := events[mp.Opened.Ref]
		out = append(out, period{availKey: key, Kind: kindNames[mp.Kind], From: mp.From, To: mp.To, HasTo: !mp.Open,
			Status: e.Status, Bot: e.Bot, File: e.File, Line: e.Line, Order: e.Order})
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
// period of their operator covers (measure.Covering, Period.Affects), and
// returns what they add to each period's counts. Only the operator's own
// requests count: none of a spoofed key, of a user-triggered fetcher, or
// for /robots.txt itself. periods are those of host (any operator), in any
// order.
func applyAvailability(key botKey, k *keyRows, periods []period, google bool) []periodCount {
	if key.Identity == 2 || len(periods) == 0 {
		return nil
	}
	type opPeriods struct {
		list     []period
		measured []measure.Period
	}
	byOp := map[string]*opPeriods{}
	for _, p := range periods {
		if p.Host == key.Host {
			o := byOp[p.Operator]
			if o == nil {
				o = &opPeriods{}
				byOp[p.Operator] = o
			}
			o.list = append(o.list, p)
		}
	}
	for _, o := range byOp {
		slices.SortFunc(o.list, func(a, b period) int {
			return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Order, b.Order), cmp.Compare(a.Line, b.Line))
		})
		for _, p := range o.list {
			kind := measure.StateUnavailable
			if p.Kind == report.PeriodUnreachable {
				kind = measure.StateUnreachable
			}
			o.measured = append(o.measured, measure.Period{Kind: kind, From: p.From, To: p.To, Open: !p.HasTo})
		}
	}
	counts := map[string]*periodCount{}
	var ids []string
	for i := range k.len() {
		if k.robotsFetch[i] || k.userTriggered[i] {
			continue
		}
		o := byOp[availOperator(key.Bot, k.operator[i])]
		if o == nil {
			continue
		}
		j := measure.Covering(o.measured, k.ts[i])
		if j < 0 {
			continue
		}
		id := o.list[j].id()
		c := counts[id]
		if c == nil {
			c = &periodCount{ID: id}
			counts[id] = c
			ids = append(ids, id)
		}
		c.Requests++
		disallowed := k.verdict[i] == audit.VerdictDisallowed || k.verdict[i] == audit.VerdictInGrace
		if o.measured[j].Affects(k.ts[i], disallowed, google) {
			k.verdict[i] = audit.VerdictUnavailable
			if o.measured[j].Kind == measure.StateUnreachable {
				k.verdict[i] = audit.VerdictUnreachable
			}
			c.Affected++
		}
	}
	out := make([]periodCount, 0, len(ids))
	for _, id := range ids {
		out = append(out, *counts[id])
	}
	return out
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
