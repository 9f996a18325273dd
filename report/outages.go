package report

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Outage is a time when robots.txt answered crawlers with errors: the
// summary's robots_status periods of one host and kind that overlap,
// merged. Each operator's period lasts until its own crawlers fetched
// robots.txt again, so the errors seen (From to LastError) say when the
// site answered them better than the periods' end does.
type Outage struct {
	Host string
	// Kind is PeriodUnreachable (5xx, 429) or PeriodUnavailable (4xx).
	Kind string
	// Statuses are the error statuses that opened the periods, ascending.
	Statuses []int
	// From is the first error response a crawler got, LastError the last
	// one that opened a period (the latest From of the periods merged).
	From, LastError time.Time
	// To is when the last operator's period ended; nil when one lasts past
	// the log's end.
	To *time.Time
	// Operators are the operators whose crawlers got the errors.
	Operators []string
	// Requests are those operators' requests during their periods;
	// Affected those whose verdict the period changed.
	Requests, Affected int64
}

// Outages merges the robots_status periods of s into outages, in order of
// host, then time.
func Outages(s *Summary) []Outage {
	ps := slices.Clone(s.RobotsStatus)
	slices.SortStableFunc(ps, func(a, b RobotsPeriod) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Kind, b.Kind), a.From.Compare(b.From))
	})
	var out []Outage
	for _, p := range ps {
		if n := len(out); n > 0 {
			o := &out[n-1]
			if o.Host == p.Host && o.Kind == p.Kind && (o.To == nil || !p.From.After(*o.To)) {
				o.add(p)
				continue
			}
		}
		o := Outage{Host: p.Host, Kind: p.Kind, From: p.From, To: p.To}
		o.add(p)
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b Outage) int { return cmp.Or(cmp.Compare(a.Host, b.Host), a.From.Compare(b.From)) })
	return out
}

func (o *Outage) add(p RobotsPeriod) {
	if !slices.Contains(o.Statuses, p.Status) {
		o.Statuses = append(o.Statuses, p.Status)
		slices.Sort(o.Statuses)
	}
	if p.Operator != "" && !slices.Contains(o.Operators, p.Operator) {
		o.Operators = append(o.Operators, p.Operator)
	}
	if p.From.After(o.LastError) {
		o.LastError = p.From
	}
	switch {
	case p.To == nil:
		o.To = nil
	case o.To != nil && p.To.After(*o.To):
		t := *p.To
		o.To = &t
	}
	o.Requests += p.Requests
	o.Affected += p.Affected
}

// Answered is what robots.txt answered: "503" or "500, 503".
func (o *Outage) Answered() string {
	s := ""
	for i, st := range o.Statuses {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(st)
	}
	return s
}

// Meaning says what the outage meant for the crawlers, as RFC 9309
// §2.3.1 has it.
func (o *Outage) Meaning() string {
	if o.Kind == PeriodUnreachable {
		return "unreachable: a crawler must not crawl the site until it fetches robots.txt again (counted as unreachable, not as disallowed)"
	}
	return "unavailable: a crawler may crawl everything until it fetches robots.txt again (requests the rules disallow are counted as unavailable, not as disallowed)"
}

// Span writes a time span in UTC to the minute: "2026-10-22 06:20 to
// 10:55 UTC", the date once when both ends fall on one day.
func Span(from, to time.Time) string {
	from, to = from.UTC(), to.UTC()
	if from.Format(time.DateOnly) == to.Format(time.DateOnly) {
		return from.Format("2006-01-02 15:04") + " to " + to.Format("15:04 UTC")
	}
	return from.Format("2006-01-02 15:04") + " to " + to.Format("2006-01-02 15:04 UTC")
}
