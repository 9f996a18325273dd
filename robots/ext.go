package robots

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Delay is a Crawl-delay or Cache-delay value: seconds, fractions allowed.
type Delay struct {
	Seconds float64
	Line    int
}

// Window is a UTC time-of-day window from Start (inclusive) to End
// (exclusive), in minutes since midnight. Start > End wraps midnight
// ("2200-0600"); End may be 1440 ("2400"). Start == End never occurs: such a
// value is rejected as invalid.
type Window struct {
	Start, End int
}

// Contains reports whether the instant unixSeconds (UTC) falls inside w.
func (w Window) Contains(unixSeconds int64) bool {
	sod := int(unixSeconds % 86400)
	if sod < 0 {
		sod += 86400
	}
	start, end := w.Start*60, w.End*60
	if start <= end {
		return start <= sod && sod < end
	}
	return sod >= start || sod < end
}

// String returns w as "HHMM-HHMM".
func (w Window) String() string {
	return hhmm(w.Start) + "-" + hhmm(w.End)
}

func hhmm(m int) string {
	return fmt.Sprintf("%02d%02d", m/60, m%60)
}

// VisitTime is a Visit-time line: the UTC window the site asks robots to
// visit in (robots.txt 2.0.0 proposal, seed 000).
type VisitTime struct {
	Window
	Line int
}

// RequestRate is a Request-rate line: at most Requests requests per Seconds
// seconds, during Window when HasWindow is set, at any time otherwise
// (robots.txt 2.0.0 proposal, seed 000).
type RequestRate struct {
	Requests  int
	Seconds   int
	Window    Window
	HasWindow bool
	Line      int
}

// stricter reports whether r allows fewer requests per unit of time than o;
// of two equal rates the one with the smaller burst (fewer requests in a
// shorter period) is stricter, since it also limits bursts.
func (r RequestRate) stricter(o RequestRate) bool {
	a, b := int64(r.Requests)*int64(o.Seconds), int64(o.Requests)*int64(r.Seconds)
	if a != b {
		return a < b
	}
	return r.Requests < o.Requests
}

// Text is a directive value kept as written (Robot-version, Comment,
// Noindex, Sitemap, Host).
type Text struct {
	Value string
	Line  int
}

// CleanParam is a Clean-param line (Yandex): query parameters that do not
// change a page's content, optionally only under a path prefix.
type CleanParam struct {
	Params []string // the '&'-separated parameter names, in order
	Path   string   // the path prefix, "" for the whole site
	Line   int
}

var errEmpty = errors.New("empty value")

// maxDelay bounds Crawl-delay and Cache-delay: a value over a year is surely
// a typo, and bounding it keeps arithmetic on it exact.
const maxDelay = 365 * 86400

// parseDelay parses a Crawl-delay or Cache-delay value: a non-negative
// decimal number of seconds ("10", "0.5", ".5", "2."), nothing else (no sign,
// exponent, unit, NaN or Inf).
func parseDelay(s string) (float64, error) {
	if s == "" {
		return 0, errEmpty
	}
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return 0, fmt.Errorf("%q is not a number of seconds", s)
		}
	}
	if digits == 0 || dots > 1 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v > maxDelay {
		return 0, fmt.Errorf("%q is not a number of seconds up to a year", s)
	}
	return v, nil
}

// maxRatePeriod bounds a Request-rate's period in seconds: 1,000,000 hours
// (114 years), the longest period the units s, m and h could already
// write. It keeps Requests*Seconds (RequestRate.stricter) within int64.
const maxRatePeriod = 1e6 * 3600

// parseRequestRate parses "n/t[unit] [window]": n requests per t units (s,
// m, h or d, case-insensitive; seconds when absent; t may be omitted before
// a unit, "1/m" meaning one per minute), optionally followed by a UTC window
// in the forms parseWindow accepts. Forms of the 2.0.0 proposal: "10/60",
// "10/10m", "20/1h", "1/10s 0800-1700". The proposal leaves units open
// ("The default time unit is the second"); "d" (days, 86,400 s) is read as
// VIPnytt/RobotsTxtParser reads it (seed 002's parser,
// src/Parser/Directives/RequestRateParser.php, draftParseRate: 'd' =>
// 86400): "1/1d" is one request a day.
func parseRequestRate(s string) (RequestRate, error) {
	var r RequestRate
	if s == "" {
		return r, errEmpty
	}
	rate, rest := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		rate, rest = s[:i], strings.TrimLeft(s[i:], " \t")
	}
	slash := strings.IndexByte(rate, '/')
	if slash < 0 {
		return r, fmt.Errorf("%q is not a rate n/t", rate)
	}
	n, ok := atoiBounded(rate[:slash], 1e9)
	if !ok || n < 1 {
		return r, fmt.Errorf("%q: the number of requests must be a whole number from 1", rate)
	}
	t := rate[slash+1:]
	mult := 1
	if t != "" {
		switch t[len(t)-1] {
		case 's', 'S':
			t = t[:len(t)-1]
		case 'm', 'M':
			mult, t = 60, t[:len(t)-1]
		case 'h', 'H':
			mult, t = 3600, t[:len(t)-1]
		case 'd', 'D':
			mult, t = 86400, t[:len(t)-1]
		}
	}
	period := 1
	if t != "" || mult == 1 {
		period, ok = atoiBounded(t, 1e6)
		if !ok || period < 1 {
			return r, fmt.Errorf("%q: the period must be a whole number from 1 with an optional unit s, m, h or d", rate)
		}
	}
	if int64(period)*int64(mult) > maxRatePeriod {
		return r, fmt.Errorf("%q: the period is over 1,000,000 hours", rate)
	}
	r.Requests, r.Seconds = n, period*mult
	if rest != "" {
		w, err := parseWindow(rest)
		if err != nil {
			return r, err
		}
		r.Window, r.HasWindow = w, true
	}
	return r, nil
}

// parseWindow parses a UTC window "HHMM-HHMM". It also accepts "HH:MM"
// times, spaces around the dash and, as the 2.0.0 proposal writes Visit-time,
// two times separated by spaces ("0100 0600"). The end may be "2400"; start
// and end must differ.
func parseWindow(s string) (Window, error) {
	var w Window
	if s == "" {
		return w, errEmpty
	}
	var a, b string
	if i := strings.IndexByte(s, '-'); i >= 0 {
		a, b = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	} else if f := strings.Fields(s); len(f) == 2 {
		a, b = f[0], f[1]
	} else {
		return w, fmt.Errorf("%q is not a window HHMM-HHMM", s)
	}
	start, ok1 := parseClock(a, false)
	end, ok2 := parseClock(b, true)
	if !ok1 || !ok2 {
		return w, fmt.Errorf("%q is not a window HHMM-HHMM (UTC)", s)
	}
	if start == end {
		return w, fmt.Errorf("%q is an empty window", s)
	}
	return Window{Start: start, End: end}, nil
}

// parseClock parses "HHMM" or "HH:MM" (or "H:MM") into minutes since
// midnight; "2400" only when end is set.
func parseClock(s string, end bool) (int, bool) {
	var hs, ms string
	if i := strings.IndexByte(s, ':'); i >= 0 {
		hs, ms = s[:i], s[i+1:]
	} else if len(s) == 4 {
		hs, ms = s[:2], s[2:]
	} else {
		return 0, false
	}
	if len(hs) < 1 || len(hs) > 2 || len(ms) != 2 {
		return 0, false
	}
	h, ok1 := atoiBounded(hs, 24)
	m, ok2 := atoiBounded(ms, 59)
	if !ok1 || !ok2 {
		return 0, false
	}
	if h == 24 {
		if !end || m != 0 {
			return 0, false
		}
	}
	return h*60 + m, true
}

// atoiBounded parses a string of ASCII digits no greater than max.
func atoiBounded(s string, max int) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= max
}

// parseCleanParam parses "p1&p2&... [path]".
func parseCleanParam(s string) (CleanParam, error) {
	var c CleanParam
	params := s
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		params, c.Path = s[:i], strings.TrimSpace(s[i:])
	}
	for p := range strings.SplitSeq(params, "&") {
		if p != "" {
			c.Params = append(c.Params, p)
		}
	}
	if len(c.Params) == 0 {
		return c, fmt.Errorf("%q names no parameter", s)
	}
	return c, nil
}
