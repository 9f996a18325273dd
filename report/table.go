package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"
)

// TableOptions controls WriteTable.
type TableOptions struct {
	// Terminal draws an aligned table with a header and a summary for a
	// person; otherwise the rows are tab-separated values with one header
	// line, for scripts (as gh does when stdout is not a terminal).
	Terminal bool
	// Limit is the most bot rows shown on a terminal (0: all).
	Limit int
}

var tableHeader = []string{"BOT", "HOST", "OPERATOR", "REQUESTS", "ROBOTS", "DISALLOWED", "IN GRACE",
	"DELAY", "RATE", "VISIT", "IPS", "VERDICT"}

// WriteTable writes the per-bot table of s.
func WriteTable(w io.Writer, s *Summary, opt TableOptions) error {
	if !opt.Terminal {
		return writeTSV(w, s)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(tableHeader, "\t"))
	rows := s.Bots
	if opt.Limit > 0 && len(rows) > opt.Limit {
		rows = rows[:opt.Limit]
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n",
			Printable(r.Label(), 40), Printable(dash(r.Host), 30), Printable(dash(r.Operator), 20),
			r.Requests, r.RobotsFetches, r.Disallowed, r.DisallowedInGrace,
			r.CrawlDelayBreaches, r.RequestRateBreaches, r.VisitTimeBreaches, r.IPs, r.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rows) < len(s.Bots) {
		fmt.Fprintf(w, "… and %d more bots (--json or --out DIR for all)\n", len(s.Bots)-len(rows))
	}
	in := s.Input
	fmt.Fprintf(w, "\n%d lines in %d %s: %d parsed, %d rejected", in.Lines, in.Files, plural(in.Files, "file", "files"), in.Parsed, in.Rejected)
	if len(in.RejectedReasons) > 0 {
		fmt.Fprintf(w, " (%s)", reasons(in.RejectedReasons))
	}
	fmt.Fprintf(w, ".\n%d bot requests, %d human requests, %d unaudited (no robots.txt version in effect)",
		in.BotRequests, in.HumanRequests, in.Unaudited)
	if in.OutsidePeriod > 0 {
		fmt.Fprintf(w, ", %d outside --from/--to", in.OutsidePeriod)
	}
	fmt.Fprintln(w, ".")
	if in.From != nil && in.To != nil {
		fmt.Fprintf(w, "Period: %s to %s (UTC). ", in.From.UTC().Format("2006-01-02 15:04:05"), in.To.UTC().Format("2006-01-02 15:04:05"))
	}
	fmt.Fprintf(w, "robots.txt: %s, profile %s, cache grace %gs.\n", Printable(s.Audit.Robots, 0), s.Audit.Spec, s.Audit.GraceSeconds)
	if s.Audit.TimeResolution == "1s" {
		fmt.Fprintln(w, "DELAY: the log's timestamps have a resolution of one second, so delays are measured to the second.")
	}
	if v := s.Verification; v != nil {
		fmt.Fprintf(w, "Identity: %d bot requests verified, %d spoofed, %d unverified (operators' published ranges",
			v.Identities[IdentityVerified], v.Identities[IdentitySpoofed], v.Identities[IdentityUnverified])
		if v.DNS != nil {
			fmt.Fprint(w, " and reverse DNS")
		}
		fmt.Fprintln(w, "); \"(spoofed)\": not made by the crawler named.")
	}
	fmt.Fprintln(w, "Columns: ROBOTS robots.txt fetches; DELAY/RATE/VISIT Crawl-delay, Request-rate and Visit-time breaches.")
	return nil
}

func writeTSV(w io.Writer, s *Summary) error {
	header := []string{"bot", "host", "identity", "operator", "purpose", "requests", "robots_fetches", "disallowed",
		"disallowed_in_grace", "crawl_delay_breaches", "request_rate_breaches", "visit_time_breaches", "ips", "verdict"}
	if _, err := fmt.Fprintln(w, strings.Join(header, "\t")); err != nil {
		return err
	}
	for _, r := range s.Bots {
		_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n",
			tsvField(r.Bot), tsvField(r.Host), r.Identity, tsvField(r.Operator), tsvField(r.Purpose),
			r.Requests, r.RobotsFetches, r.Disallowed, r.DisallowedInGrace,
			r.CrawlDelayBreaches, r.RequestRateBreaches, r.VisitTimeBreaches, r.IPs, r.Verdict)
		if err != nil {
			return err
		}
	}
	return nil
}

func reasons(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Most frequent first, then by name.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && (m[keys[j]] > m[keys[j-1]] || m[keys[j]] == m[keys[j-1]] && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Printable makes an attacker-controlled string safe for a terminal: control
// characters (escape sequences among them) and invalid UTF-8 are written as
// Go escapes, and the result is cut to max runes with an ellipsis.
func Printable(s string, max int) string {
	if max > 0 && utf8.RuneCountInString(s) > max {
		cut, n := 0, 0
		for i := range s {
			if n == max-1 {
				cut = i
				break
			}
			n++
		}
		return Printable(s[:cut], 0) + "…"
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TerminalSafe makes a message for a terminal safe (contract §9): every
// line is made Printable, so that a log's or a robots.txt's escape
// sequences quoted in an error (ESC[2J) reach the terminal as text; line
// breaks are kept.
func TerminalSafe(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = Printable(strings.TrimSuffix(l, "\r"), 0)
	}
	return strings.Join(lines, "\n")
}

// tsvField keeps a value on one TSV cell: tabs and line breaks become spaces,
// other control characters are escaped.
func tsvField(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	return Printable(s, 0)
}
