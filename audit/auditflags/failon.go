package auditflags

import (
	"fmt"
	"strings"

	"github.com/crawlaudit/crawlaudit/report"
)

// failKinds are the findings --fail-on names (crawlaudit audit and
// crawlaudit-beam), with the test each makes of
// a summary row. "breaches" is any of the three limits.
var failKinds = []struct {
	name string
	test func(*report.BotRow) int64
}{
	{"disallowed", func(r *report.BotRow) int64 { return r.Disallowed }},
	{"spoofed", func(r *report.BotRow) int64 {
		if r.Identity == report.IdentitySpoofed {
			return r.Requests
		}
		return 0
	}},
	{"breaches", func(r *report.BotRow) int64 {
		return r.CrawlDelayBreaches + r.RequestRateBreaches + r.VisitTimeBreaches
	}},
	{"crawl-delay", func(r *report.BotRow) int64 { return r.CrawlDelayBreaches }},
	{"request-rate", func(r *report.BotRow) int64 { return r.RequestRateBreaches }},
	{"visit-time", func(r *report.BotRow) int64 { return r.VisitTimeBreaches }},
	{"in-grace", func(r *report.BotRow) int64 { return r.DisallowedInGrace }},
}

// FailKindNames lists the names --fail-on accepts.
func FailKindNames() []string {
	var ns []string
	for _, k := range failKinds {
		ns = append(ns, k.name)
	}
	return ns
}

// ParseFailOn parses --fail-on's comma list into indices of failKinds.
func ParseFailOn(s string) ([]int, error) {
	var idx []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		if f == "" {
			continue
		}
		found := false
		for i, k := range failKinds {
			if k.name == f {
				idx = append(idx, i)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown kind %q: use a comma list of %s", f, strings.Join(FailKindNames(), ", "))
		}
	}
	return idx, nil
}

// FailFindings returns one line per bot row with a finding of the kinds
// (for stderr), empty when none has.
func FailFindings(s *report.Summary, kinds []int) []string {
	var out []string
	for i := range s.Bots {
		r := &s.Bots[i]
		var what []string
		for _, k := range kinds {
			if n := failKinds[k].test(r); n > 0 {
				what = append(what, fmt.Sprintf("%s %d", failKinds[k].name, n))
			}
		}
		if len(what) > 0 {
			host := r.Host
			if host == "" {
				host = "(no host)"
			}
			out = append(out, fmt.Sprintf("%s on %s: %s", report.Printable(r.Label(), 80), report.Printable(host, 80), strings.Join(what, ", ")))
		}
	}
	return out
}
