package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/report"
)

// failKinds are the findings --fail-on names, with the test each makes of
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

// failKindNames lists the names --fail-on accepts.
func failKindNames() []string {
	var ns []string
	for _, k := range failKinds {
		ns = append(ns, k.name)
	}
	return ns
}

// parseFailOn parses --fail-on's comma list into indices of failKinds.
func parseFailOn(s string) ([]int, error) {
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
			return nil, fmt.Errorf("unknown kind %q: use a comma list of %s", f, strings.Join(failKindNames(), ", "))
		}
	}
	return idx, nil
}

// failFindings returns one line per bot row with a finding of the kinds
// (for stderr), empty when none has.
func failFindings(s *report.Summary, kinds []int) []string {
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

// missingLogs returns an error naming the first LOG argument that names
// nothing: a path that does not exist, a glob that matches no file. It is
// checked before the audit starts, so that a typo'd path fails before any
// table is printed.
func missingLogs(logs []string) error {
	for _, l := range logs {
		if l == "-" || objstore.IsURL(l) {
			continue // objects are listed when read; a missing one is an input error then
		}
		_, err := os.Stat(l)
		if err == nil {
			continue
		}
		if strings.ContainsAny(l, "*?[") {
			m, err := filepath.Glob(l)
			if err != nil {
				return fmt.Errorf("%s: bad pattern: %v", l, err)
			}
			if len(m) == 0 {
				return fmt.Errorf("%s: no file matches", l)
			}
			continue
		}
		return err
	}
	return nil
}
