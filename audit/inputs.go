//go:build duckdb_arrow

package audit

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// ErrNothingToAudit is wrapped by the error of a run whose input yields
// nothing to audit: no log line, no line that parses, every
// request outside --from/--to, no robots.txt version covering any bot
// request. Such a run is never reported as a clean bill of health.
var ErrNothingToAudit = errors.New("nothing to audit")

// nothingError is an ErrNothingToAudit with what and why.
type nothingError struct{ why string }

func (e *nothingError) Error() string { return "nothing to audit: " + e.why }
func (e *nothingError) Unwrap() error { return ErrNothingToAudit }

// checkRobots refuses a robots.txt history that cannot be what crawlers
// read: a version that is plainly not a robots.txt (an HTML page, UTF-16,
// compressed or binary data: the wrong file given), or versions of which
// none holds a single directive (every request would be allowed, nothing
// audited). With keepGoing the refusals are returned as warnings and the
// audit goes on with the files as they are.
func checkRobots(hist *history.History, src string, keepGoing bool) (warnings []string, err error) {
	var wrong []string
	anyDirective := false
	for _, v := range hist.All() {
		if v.Deleted {
			continue
		}
		f := robots.Parse(v.Data)
		if d, bad := f.NotRobotsTxt(); bad {
			wrong = append(wrong, fmt.Sprintf("%s:%d: %s", v.Name, d.Line, d.Message))
			continue
		}
		anyDirective = anyDirective || f.HasDirective()
	}
	var problems []string
	if len(wrong) > 0 {
		msg := "--robots " + wrong[0]
		if len(wrong) > 1 {
			msg += fmt.Sprintf(" (and %d more versions like it)", len(wrong)-1)
		}
		problems = append(problems, msg+": plainly the wrong file, so crawlers found no rule in it; give the robots.txt the site served")
	}
	if !anyDirective && len(wrong) < len(hist.All()) {
		what := "it holds"
		if len(hist.All()) > 1 {
			what = "no version holds"
		}
		problems = append(problems, fmt.Sprintf("--robots %s: %s not a single directive (it is empty, or only comments): every request would be allowed, so nothing would be audited", src, what))
	}
	if len(problems) == 0 {
		return nil, nil
	}
	if keepGoing {
		for _, p := range problems {
			warnings = append(warnings, p+" (audited anyway: --keep-going)")
		}
		return warnings, nil
	}
	return nil, fmt.Errorf("%s (--keep-going audits with it anyway)", problems[0])
}

// nothingAudited returns why a finished run audited nothing, or nil. from
// and to are the first and last timestamps of the logs' requests, hosts
// the hosts they were judged for.
func nothingAudited(in *report.Input, rh []report.RobotsHost, src string, from, to time.Time, hosts []string) error {
	span := func() string {
		if from.IsZero() {
			return ""
		}
		return fmt.Sprintf(" (the logs run from %s to %s)", from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339))
	}
	switch {
	case in.Lines == 0:
		why := fmt.Sprintf("the %d log file(s) hold no line", in.Files)
		if in.Directives > 0 {
			why += fmt.Sprintf(" but %d format directive(s)", in.Directives)
		}
		if in.Files == 0 {
			why = "no log file was found"
		}
		return &nothingError{why + ": check the LOG arguments"}
	case in.Parsed == 0:
		var reasons []string
		for r, n := range in.RejectedReasons {
			reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(reasons)
		return &nothingError{fmt.Sprintf("none of the %d log lines could be read as a request (%s): give the format with --format or --log-format", in.Lines, strings.Join(reasons, ", "))}
	case in.OutsidePeriod == in.Parsed:
		return &nothingError{fmt.Sprintf("all %d requests are outside --from/--to%s", in.Parsed, span())}
	case in.BotRequests > 0 && in.Unaudited == in.BotRequests:
		var versions []string
		for _, h := range rh {
			name := h.Host
			if name == "" {
				name = "any host"
			}
			if h.First != nil {
				versions = append(versions, fmt.Sprintf("%s from %s", name, h.First.Format(time.RFC3339)))
			} else {
				versions = append(versions, name)
			}
		}
		logHosts := strings.Join(hosts, ", ")
		if len(hosts) > 5 {
			logHosts = strings.Join(hosts[:5], ", ") + fmt.Sprintf(" and %d more", len(hosts)-5)
		}
		return &nothingError{fmt.Sprintf("no robots.txt version of %s covers any of the %d bot requests%s: its versions are for %s; the requests are for %s (name the host with --host, or give versions that went live earlier)", src, in.BotRequests, span(), strings.Join(versions, "; "), logHosts)}
	}
	return nil
}
