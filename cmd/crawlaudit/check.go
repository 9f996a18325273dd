package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// maxRobotsRead bounds how much of a robots.txt check and lint read: far
// more than the 500 KiB that is parsed, so that the size is reported, but
// not unbounded (a path to /dev/zero must not exhaust memory).
const maxRobotsRead = 64 << 20

// checkOptions are the flags and arguments of `crawlaudit check`.
type checkOptions struct {
	robots string   // --robots FILE, "-" for stdin
	agent  string   // --agent: a product token or a User-Agent header
	spec   string   // --spec PROFILE
	at     string   // --at T: the instant Request-rate and Visit-time are evaluated at
	json   bool     // --json
	urls   []string // URL arguments
	// agentSet: --agent was given, possibly empty (accepted under
	// --spec google, where an empty agent gets the "*" groups).
	agentSet bool
	// atSet: --at was given, possibly empty (an error).
	atSet bool
	// now is the instant the Request-rate in force is taken at without
	// --at; time.Now when nil.
	now func() time.Time
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		o := &checkOptions{}
		cmd := &cobra.Command{
			Use:   "check --robots FILE --agent AGENT [--spec PROFILE] [--at T] [--json] URL...",
			Short: "Check URLs against a robots.txt for one crawler",
			Long: `check reads a robots.txt file and says, for each URL, whether the crawler
named by --agent may fetch it, which group applied and which rule decided.

--agent takes a bare product token (Googlebot) or a full User-Agent header;
in a header the longest robots.txt token that appears as a product name wins,
else the "*" group. URLs are full (http://host/path?q) or bare paths
(/path?q). --spec selects the semantics: rfc9309 (default), google,
koster1996, orig1994 or spc2 (the robots.txt 2.0.0 proposal: groups that
declare Robot-version: 2.0.0 match URLs whole, explicit Allow first, then
Disallow, then wildcard Allow).

Every Request-rate line of the group is listed with its UTC window. The
Request-rate in force is the one whose window covers the instant, else the
strictest without a window; the instant is now, or T with --at T. --at also
says whether T is inside the Visit-time window. T is RFC 3339
(2026-10-01T08:30:00Z, any offset) or YYYY-MM-DD HH:MM in UTC
(2026-10-01 08:30).

--spec google reads a URL as Google's matcher (google/robotstxt) does: any
string is a URL, cut to its path, params and query ("example.com/a" and
"//x/a" are /a, "a/b" is /b, "" is /), compared octet for octet with the
rules (which are %-encoded as Google's parser encodes them); --agent ""
is accepted: only "*" groups apply; and an --agent of words with spaces
and nothing else of a header ("Foo Bar") is one crawler name, compared
whole as Google's matcher compares it, so only "*" groups apply to it.

With --json each URL gives one JSON object per line:
  {"url": "/private/x", "allowed": false, "group": "googlebot",
   "rule": "Disallow: /private/", "line": 12, "crawl_delay": 10,
   "request_rate": [1, 10], "visit_time": ["0100", "0600"],
   "request_rates": [{"requests": 1, "seconds": 10, "window": null, "line": 14, "in_force": true},
                     {"requests": 1, "seconds": 2, "window": ["0800", "0900"], "line": 15, "in_force": false}]}
(group, rule, line, crawl_delay, request_rate, visit_time are null when absent;
request_rate is the rate in force, request_rates every line, [] when none).
When the file has Content-Usage or Content-Signal lines, "preferences" follows:
the AI-use preference in effect for the URL and the crawler, per category,
  "preferences": {"train_ai": {"value": "n", "line": 4, "directive": "Content-Usage"},
                  "ai_use": null, "search": {"value": "y", "line": 1, "directive": "Content-Signal"}}
(null when unset; see docs/preferences.md), and the terminal prints them in a
line under each URL.
With --at T two keys follow: "at": T in RFC 3339 UTC, and "in_visit_time":
true when T is inside the Visit-time window or there is none, else false.

Exit status: 0 all URLs allowed; 1 some URL disallowed; 2 usage or input error.`,
			Example: `  crawlaudit check --robots robots.txt --agent Googlebot /private/x /
  crawlaudit check --robots robots.txt --agent 'Mozilla/5.0 (compatible; GPTBot/1.2)' --json https://example.com/a?b=1
  crawlaudit check --robots robots.txt --agent bingbot --at '2026-10-01 08:30' /
  crawlaudit check --robots robots.txt --agent Chives --spec spc2 /docs/index.html
  curl -s https://example.com/robots.txt | crawlaudit check --robots - --agent bingbot --spec google /search`,
			Args: needArgs("check", "no URL given: name the URLs (http://host/path or /path) to check"),
			RunE: func(cmd *cobra.Command, args []string) error {
				o.urls = args
				o.agentSet = cmd.Flags().Changed("agent")
				o.atSet = cmd.Flags().Changed("at")
				return runCheck(e, o)
			},
		}
		f := cmd.Flags()
		f.StringVar(&o.robots, "robots", "", "robots.txt file to read (- for stdin)")
		f.StringVar(&o.agent, "agent", "", "crawler: product token or User-Agent header")
		f.StringVar(&o.spec, "spec", "rfc9309", "semantics: rfc9309, google, koster1996, orig1994 or spc2")
		f.StringVar(&o.at, "at", "", "evaluate Request-rate and Visit-time at `T`: RFC 3339, or YYYY-MM-DD HH:MM (UTC)")
		f.BoolVar(&o.json, "json", false, "print one JSON object per URL per line")
		return cmd
	})
}

// checkResult is one line of `check --json`; its keys are stable, since
// scripts read them.
type checkResult struct {
	URL         string     `json:"url"`
	Allowed     bool       `json:"allowed"`
	Group       *string    `json:"group"`
	Rule        *string    `json:"rule"`
	Line        *int       `json:"line"`
	CrawlDelay  *float64   `json:"crawl_delay"`
	RequestRate *[2]int    `json:"request_rate"`
	VisitTime   *[2]string `json:"visit_time"`
	// RequestRates is every Request-rate line of the group, in file order.
	RequestRates []checkRate `json:"request_rates"`
	// At and InVisitTime are set with --at only.
	At          *string `json:"at,omitempty"`
	InVisitTime *bool   `json:"in_visit_time,omitempty"`
	// Preferences is set only when the file has a Content-Usage or
	// Content-Signal line, so the output of other files is unchanged.
	Preferences *checkPrefs `json:"preferences,omitempty"`
}

// checkPrefs is the AI-use preference in effect for the URL and the
// crawler, per category (docs/preferences.md); null when unset.
type checkPrefs struct {
	TrainAI *checkPref `json:"train_ai"`
	AIUse   *checkPref `json:"ai_use"`
	Search  *checkPref `json:"search"`
}

// checkPref is one category's preference and the line that states it.
type checkPref struct {
	Value     string `json:"value"`     // "y" or "n"
	Line      int    `json:"line"`      // the line of the statement
	Directive string `json:"directive"` // "Content-Usage" or "Content-Signal"
}

// newCheckPrefs converts the preferences in effect for check's output.
func newCheckPrefs(p robots.Preferences) *checkPrefs {
	one := func(c robots.Category) *checkPref {
		if p[c].Value == robots.Unset {
			return nil
		}
		return &checkPref{Value: p[c].Value.String(), Line: p[c].Line, Directive: p[c].Kind.String()}
	}
	return &checkPrefs{TrainAI: one(robots.TrainAI), AIUse: one(robots.AIUse), Search: one(robots.Search)}
}

// prefLine is the terminal's line of the preferences in effect: each
// category with its value and line, or unset. A disallowed URL has no
// preference (draft-ietf-aipref-attach-05 §3.1), which the line says.
func prefLine(p robots.Preferences, allowed bool) string {
	parts := make([]string, 0, robots.NumCategories)
	for c := robots.Category(0); c < robots.NumCategories; c++ {
		if p[c].Value == robots.Unset {
			parts = append(parts, c.String()+" unset")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%s (line %d, %s)", c, p[c].Value, p[c].Line, p[c].Kind))
	}
	s := "preferences: " + strings.Join(parts, ", ")
	if !allowed {
		s += "; the URL is disallowed, so no preference applies to it"
	}
	return s
}

// checkRate is one Request-rate line in `check --json`.
type checkRate struct {
	Requests int        `json:"requests"`
	Seconds  int        `json:"seconds"`
	Window   *[2]string `json:"window"` // UTC, null for a line without one
	Line     int        `json:"line"`
	// InForce: the line is the one in force at the instant (--at T, or
	// now), the one request_rate gives.
	InForce bool `json:"in_force"`
}

// checkAtForms names the forms --at accepts, for its error message.
const checkAtForms = "RFC 3339 (2026-10-01T08:30:00Z) or YYYY-MM-DD HH:MM in UTC (2026-10-01 08:30)"

// parseCheckAt parses --at: RFC 3339 (fractional seconds and any offset
// allowed), or "YYYY-MM-DD HH:MM" read as UTC.
func parseCheckAt(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02 15:04", s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("invalid --at %q: use %s", s, checkAtForms)
}

// runCheck runs `crawlaudit check`.
func runCheck(e *env, o *checkOptions) error {
	if o.robots == "" {
		return usageErr("check: --robots FILE is required")
	}
	profile, err := robots.ParseProfile(o.spec)
	if err != nil {
		return usageErr("check: %v", err)
	}
	// Google's matcher takes an empty agent and applies only the "*"
	// groups to it (robots_test.cc, GoogleOnly_SystemTest); the other
	// profiles want a crawler to check.
	if strings.TrimSpace(o.agent) == "" && !(profile == robots.Google && o.agentSet) {
		return usageErr("check: --agent AGENT is required (a product token or a User-Agent header)")
	}
	if len(o.urls) == 0 {
		return usageErr("check: no URL given")
	}
	var at time.Time
	o.atSet = o.atSet || o.at != "" // runCheck called without the flag set
	if o.atSet {
		if at, err = parseCheckAt(o.at); err != nil {
			return usageErr("check: %v", err)
		}
	}
	// targets are what is decided for each URL: under google the path
	// Google's matcher reads in it (any string is a URL to it); else the
	// URL itself, which must be absolute or a path.
	targets := make([]string, len(o.urls))
	for i, u := range o.urls {
		switch {
		case profile == robots.Google:
			targets[i] = robots.GooglePathParamsQuery(u)
		case isCheckURL(u):
			targets[i] = u
		default:
			return usageErr("check: invalid URL %q: want a full URL (http://host/path?q) or a path starting with / (/path?q)", u)
		}
	}
	name, data, err := readRobots(e, o.robots)
	if err != nil {
		return usageErr("check: %v", err)
	}
	f := robots.Parse(data)
	// A file that is plainly not a robots.txt (an HTML page, binary, a
	// compressed file) would answer "allowed" for every URL: an input
	// error, as audit treats it, not a clean bill of health.
	if d, bad := f.NotRobotsTxt(); bad {
		return usageErr("check: --robots %s:%d: %s: plainly the wrong file, so no rule can be checked; give the robots.txt the site serves", report.Printable(name, 0), d.Line, d.Message)
	}
	if n := countErrors(f); n > 0 {
		fmt.Fprintf(e.stderr, "crawlaudit: warning: %s has %d error(s); see crawlaudit lint %s\n", report.Printable(name, 0), n, report.Printable(o.robots, 0))
	}
	g := robots.Compile(f, profile).Resolve(o.agent)
	when := at
	if !o.atSet {
		now := time.Now
		if o.now != nil {
			now = o.now
		}
		when = now().UTC()
	}
	limits := checkLimits(g, when.Unix())
	if o.atSet {
		s, in := when.Format(time.RFC3339Nano), g.InVisitTime(when.Unix())
		limits.At, limits.InVisitTime = &s, &in
	}

	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	var buf []byte
	disallowed := false
	hasPrefs := f.HasPreferences()
	for i, u := range o.urls {
		var d robots.Decision
		d, buf = g.Decide([]byte(targets[i]), buf)
		disallowed = disallowed || !d.Allowed
		res := limits
		res.URL, res.Allowed = u, d.Allowed
		if d.Line > 0 {
			rule, line := d.Rule, d.Line
			res.Rule, res.Line = &rule, &line
		}
		var prefs robots.Preferences
		if hasPrefs {
			prefs, buf = g.Preferences([]byte(targets[i]), buf)
			res.Preferences = newCheckPrefs(prefs)
		}
		if o.json {
			if err := enc.Encode(&res); err != nil {
				return usageErr("check: cannot write output: %v", err)
			}
			continue
		}
		verdict, why := "allowed   ", "no rule matches"
		if !d.Allowed {
			verdict = "DISALLOWED"
		}
		switch {
		case d.Index >= 0:
			why = fmt.Sprintf("line %d: %s", d.Line, d.Rule)
		case d.Line > 0:
			// spc2: a 2.0.0 group's Allow lines leave the URL out.
			why = fmt.Sprintf("line %d: %s: no Allow line of this group matches, and it allows only what they match", d.Line, d.Rule)
		}
		// The URL and the rule come from the user and the robots.txt: no
		// escape sequence in them reaches the terminal.
		fmt.Fprintf(e.stdout, "%s  %s  (%s)\n", verdict, report.Printable(u, 0), report.Printable(why, 0))
		if hasPrefs {
			fmt.Fprintf(e.stdout, "            %s\n", prefLine(prefs, d.Allowed))
		}
	}
	if !o.json {
		printCheckGroup(e.stdout, g, limits, o.atSet)
	}
	if disallowed {
		return found()
	}
	return nil
}

// checkLimits fills the group-level fields of a result.
func checkLimits(g *robots.Resolved, now int64) checkResult {
	var r checkResult
	if g.Matched() {
		name := g.Name()
		r.Group = &name
	}
	if s, ok := g.CrawlDelay(); ok {
		r.CrawlDelay = &s
	}
	inForce, ok := g.RequestRateAt(now)
	if ok {
		r.RequestRate = &[2]int{inForce.Requests, inForce.Seconds}
	}
	r.RequestRates = []checkRate{}
	for _, rr := range g.RequestRates() {
		c := checkRate{Requests: rr.Requests, Seconds: rr.Seconds, Line: rr.Line, InForce: ok && rr.Line == inForce.Line}
		if rr.HasWindow {
			c.Window = &[2]string{hhmm(rr.Window.Start), hhmm(rr.Window.End)}
		}
		r.RequestRates = append(r.RequestRates, c)
	}
	if s, e, ok := g.VisitTime(); ok {
		r.VisitTime = &[2]string{hhmm(s), hhmm(e)}
	}
	return r
}

// hhmm formats minutes since midnight as "HHMM".
func hhmm(m int) string { return fmt.Sprintf("%02d%02d", m/60, m%60) }

// perTime formats a Request-rate as "n per t", t in the largest unit that
// divides it ("1 per 10 s", "10 per 10 min", "1 per 1 d").
func perTime(n, seconds int) string {
	switch {
	case seconds%86400 == 0:
		return fmt.Sprintf("%d per %d d", n, seconds/86400)
	case seconds%3600 == 0:
		return fmt.Sprintf("%d per %d h", n, seconds/3600)
	case seconds%60 == 0:
		return fmt.Sprintf("%d per %d min", n, seconds/60)
	}
	return fmt.Sprintf("%d per %d s", n, seconds)
}

// printCheckGroup prints which group applied and its limits, then every
// Request-rate line. at says that --at was given: the instant is r.At, not
// now.
func printCheckGroup(w io.Writer, g *robots.Resolved, r checkResult, at bool) {
	if !g.Matched() {
		fmt.Fprintln(w, "no group applies to this agent (and there is no \"*\" group): everything is allowed")
		return
	}
	when := "now"
	if at {
		when = "at " + *r.At
	}
	var limits []string
	if r.CrawlDelay != nil {
		limits = append(limits, fmt.Sprintf("crawl-delay %g s", *r.CrawlDelay))
	}
	if r.RequestRate != nil {
		limits = append(limits, fmt.Sprintf("request-rate %s (%s)", perTime(r.RequestRate[0], r.RequestRate[1]), when))
	}
	if r.VisitTime != nil {
		v := fmt.Sprintf("visit-time %s-%s UTC", r.VisitTime[0], r.VisitTime[1])
		if at {
			inside := "outside"
			if *r.InVisitTime {
				inside = "inside"
			}
			v += fmt.Sprintf(" (%s is %s it)", *r.At, inside)
		}
		limits = append(limits, v)
	}
	line := "group " + report.Printable(strconv.Quote(g.Name()), 0)
	if len(limits) > 0 {
		line += ": " + strings.Join(limits, ", ")
	}
	fmt.Fprintln(w, line)
	for _, rr := range r.RequestRates {
		window := "when no window covers the time"
		if rr.Window != nil {
			window = fmt.Sprintf("%s-%s UTC", rr.Window[0], rr.Window[1])
		}
		mark := ""
		if rr.InForce {
			mark = "  (in force " + when + ")"
		}
		fmt.Fprintf(w, "  line %d: Request-rate %s, %s%s\n", rr.Line, perTime(rr.Requests, rr.Seconds), window, mark)
	}
}

// isCheckURL reports whether u is a path ("/p?q") or an absolute URL with a
// scheme and "://".
func isCheckURL(u string) bool {
	if strings.HasPrefix(u, "/") {
		return true
	}
	i := strings.Index(u, "://")
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := u[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// readRobots reads a robots.txt file, or stdin for "-". It returns the name
// to show in messages.
func readRobots(e *env, path string) (string, []byte, error) {
	if path == "-" {
		data, err := io.ReadAll(io.LimitReader(e.stdin, maxRobotsRead))
		if err != nil {
			return "<stdin>", nil, fmt.Errorf("cannot read robots.txt from stdin: %w", err)
		}
		return "<stdin>", data, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return path, nil, fmt.Errorf("cannot read robots.txt: %w", err)
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && fi.IsDir() {
		return path, nil, fmt.Errorf("cannot read robots.txt %s: is a directory", path)
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxRobotsRead))
	if err != nil {
		return path, nil, fmt.Errorf("cannot read robots.txt %s: %w", path, err)
	}
	return path, data, nil
}

func countErrors(f *robots.File) int {
	n := 0
	for _, d := range f.Diagnostics {
		if d.Severity == robots.Error {
			n++
		}
	}
	return n
}
