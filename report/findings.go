package report

import (
	"strconv"
	"time"
)

// Findings is what the reports a person reads show:
// report.html (package report/page) and report.md (package
// report/markdown) are both rendered from one Findings, which the audit
// fills from the same SQL results as its other outputs (audit.Result.Findings).
//
// Every list is bounded: it holds at most the number of entries Limits
// says, and the total before the cut, so that a report stays small for any
// input and says how much it leaves out. Strings from logs (bot names, user
// agents, paths, addresses) are kept as they are: each renderer escapes them
// for its own format.
//
// A new metric is a field of BotRow (a column of the bots table, see
// BotColumns) or a new section: the renderers iterate over BotColumns and
// Sections rather than naming each metric.
type Findings struct {
	// Summary is summary.json: input accounting, robots.txt hosts, the bot
	// rows, how the audit was made, verification.
	Summary *Summary
	// Tool names the program and version ("crawlaudit v1.2.0"); Generated
	// is when the report was made.
	Tool      string
	Generated time.Time
	// Limits are the N of every top-N list.
	Limits Limits
	// Headlines are the main findings in a sentence each, worst first.
	Headlines []string

	// Days are the UTC days of the audited period, in order; every per-day
	// series has one value per day. Slot is their length: 24 h, or 1 h
	// when the period lies within one UTC day, whose hours Days then are.
	Days []time.Time
	Slot time.Duration
	// Rows are the first Limits.Bots rows of Summary.Bots with their
	// per-day counts and User-Agents; Summary.Bots has them all.
	Rows []BotFindings
	// Timeline is requests per day of the Limits.TimelineBots bot rows
	// with most requests.
	Timeline []Series
	// PerDay are the findings per day over every bot: disallowed, in
	// grace, and the three kinds of breach.
	PerDay []Series
	// TimelineBytes are the response bytes per day of the Timeline's bot
	// rows, in its order; BytesPerDay those of every bot request.
	TimelineBytes []Series
	BytesPerDay   Series

	// Versions are the robots.txt versions, per host in order of Start,
	// each with what changed from the one before: the Limits.Versions
	// newest of those in effect during the audited period;
	// VersionsTotal counts them all.
	Versions      []RobotsVersion
	VersionsTotal int
	// Rules are the robots.txt rules that decided disallowed requests, most
	// requests first; RulesTotal counts them all.
	Rules      []BrokenRule
	RulesTotal int
	// Paths are the most requested disallowed paths of the bot rows with
	// most disallowed requests; PathBotsTotal counts the rows with any.
	Paths         []BotPaths
	PathBotsTotal int
	// Breaches are the crawl-delay, request-rate and visit-time breaches
	// per bot row, kind and limit, most breaches first; BreachesTotal
	// counts the groups.
	Breaches      []BreachGroup
	BreachesTotal int
	// CrawlDelayIgnored are the crawlers with short gaps that their
	// operator says ignore Crawl-delay (crawl_delay_unsupported), one per
	// bot name, most gaps first: the reports say the rule has no effect on
	// them and where their operator's own control is.
	CrawlDelayIgnored []CrawlDelayNote
	// Block is the block list: what was written and why.
	Block BlockFindings
	// Preferences are the versions of the hosts whose robots.txt declares
	// AI-use preferences in some version, with the exposure under each
	// (PrefVersion); nil when no version declares any.
	Preferences []PrefVersion
}

// Limits are the N of the top-N lists of Findings.
type Limits struct {
	Bots         int // rows of the bots table
	TimelineBots int // bots drawn in the timeline
	UserAgents   int // User-Agents shown per bot row
	Rules        int // broken rules
	RuleBots     int // bots named per rule
	PathBots     int // bot rows whose disallowed paths are listed
	Paths        int // paths per bot row
	Breaches     int // breach groups
	BlockEntries int // addresses of the block list shown
	DiffLines    int // lines of a version diff shown
	Versions     int // robots.txt versions shown
	// Chars is the longest string from a log or a robots.txt shown, in
	// characters; longer ones are cut and end with "…".
	Chars int
}

// DefaultLimits are the limits of the reports crawlaudit writes.
var DefaultLimits = Limits{
	Bots: 100, TimelineBots: 8, UserAgents: 3, Rules: 30, RuleBots: 5,
	PathBots: 15, Paths: 10, Breaches: 40, BlockEntries: 100, DiffLines: 120,
	Versions: 10, Chars: 300,
}

// Cut returns s cut to n characters, ending with "…" when cut.
func Cut(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// Count is a string and how many requests it has.
type Count struct {
	Value string
	N     int64
}

// BotFindings is one row of the bots table with what the report draws.
type BotFindings struct {
	BotRow
	// Requests and Disallowed per day of Findings.Days (the sparkline).
	Requests, Disallowed []int64
	// UserAgents are the row's most frequent User-Agent headers;
	// UserAgentsTotal counts the distinct ones.
	UserAgents      []Count
	UserAgentsTotal int64
}

// Series is one line of a chart: a name and a value per day.
type Series struct {
	// Label is what a legend shows (BotRow.Label for a bot).
	Label  string
	Values []int64
	Total  int64
}

// RobotsVersion is one robots.txt version.
type RobotsVersion struct {
	Host string
	// Number is the version's 1-based number among its host's versions.
	Number int
	// Name is the file or commit the version comes from.
	Name string
	// Start is when it went live; the zero time: in effect for all time.
	Start time.Time
	// NotBefore, when not zero, is the earliest instant it may have gone
	// live (a history rebuilt from the web archive): requests from then
	// until Start were judged by this version and the one before.
	NotBefore time.Time
	// Lines, Rules (Allow and Disallow lines) and Bytes describe the file.
	Lines, Rules, Bytes int
	// Requests were judged by this version; Disallowed of them were
	// disallowed.
	Requests, Disallowed int64
	// First is true for a host's first version, which has no diff.
	First bool
	// Diff is the change from the host's previous version, with context,
	// cut to Limits.DiffLines lines; DiffCut counts the lines left out.
	// Added and Removed count the changed lines.
	Diff           []DiffLine
	DiffCut        int
	Added, Removed int
}

// CrawlDelayNote is a crawler on which Crawl-delay has no effect.
type CrawlDelayNote struct {
	Bot, Operator string
	// N counts its requests sooner than Crawl-delay after its previous one.
	N int64
	// Control names where its operator lets a site set its crawl rate,
	// ControlURL documents it, and Source is the operator's statement.
	Control, ControlURL, Source string
}

// Sentence is the note as one sentence: "Crawl-delay has no effect on
// Googlebot: Google ignores it; its crawl rate is set in Search Console".
func (n CrawlDelayNote) Sentence() string {
	s := "Crawl-delay has no effect on " + n.Bot + ": " + n.Operator + " ignores it"
	if n.Control != "" {
		s += "; its crawl rate is set in " + n.Control
	}
	return s
}

// DiffLine is one line of a diff. Op is '+' (added), '-' (removed), ' '
// (unchanged, context) or '~' (lines left out between two hunks). Old and
// New are its 1-based line numbers in the previous and this version (0
// where it has none).
type DiffLine struct {
	Op       byte
	Old, New int
	Text     string
}

// BrokenRule is a robots.txt rule that decided disallowed requests.
type BrokenRule struct {
	Host    string
	Version string
	// VersionStart is when the version went live (zero: all time).
	VersionStart time.Time
	Line         int
	Rule         string
	// Requests were disallowed by it; InGrace were too, but within the
	// cache grace of a change.
	Requests, InGrace int64
	// Bots are the bot rows (BotRow.Label) with most requests it
	// disallowed; BotsTotal counts them all.
	Bots      []Count
	BotsTotal int
}

// BotPaths are the most requested disallowed paths of one bot row.
type BotPaths struct {
	Label      string
	Bot        string
	Identity   string
	Host       string
	Disallowed int64
	Paths      []PathCount
	// PathsTotal counts the row's distinct disallowed paths.
	PathsTotal int64
}

// PathCount is a path (and query) with its disallowed requests and the
// rule that disallowed the last of them.
type PathCount struct {
	Path string
	N    int64
	Rule string
	Line int
}

// Breach kinds of BreachGroup.Kind.
const (
	BreachCrawlDelay  = "crawl-delay"
	BreachRequestRate = "request-rate"
	BreachVisitTime   = "visit-time"
)

// BreachGroup is the breaches of one kind and limit by one bot row.
type BreachGroup struct {
	Label    string
	Bot      string
	Identity string
	Host     string
	Kind     string
	// Limit is the limit in force ("10" seconds, "3/60s", "0100-0500").
	Limit string
	// Unit says what Worst and Median measure.
	Unit string
	N    int64
	// Worst and Median are the measured values: the shortest gap, the
	// largest count in a window, or the time of day furthest from the
	// window (for visit-time the first breach's time of day).
	Worst, Median string
	First, Last   time.Time
}

// BlockFindings says what the block list holds and why.
type BlockFindings struct {
	// Files are the block-list files written; empty when the report was
	// written without --out (then the list is the one --out would write).
	Files []string
	// Kinds are the --block-on kinds, Min the --block-min threshold;
	// Verified tells --block-verified; AllowList names --allow-list.
	Kinds     []string
	Min       int
	Verified  bool
	AllowList string
	// Addresses is how many addresses the list holds, Blocks how many
	// prefixes they make.
	Addresses, Blocks int
	// Entries are the first Limits.BlockEntries addresses, most findings
	// first.
	Entries []BlockEntry
	// Excluded counts addresses that qualified but are never written:
	// allowed, not blockable (loopback, multicast), invalid.
	Allowed, NotBlockable, Invalid int
	// HeldBackVerified counts the verified addresses that qualified but
	// were held back (no --block-verified); HeldBack names their crawlers.
	HeldBackVerified int
	HeldBack         []HeldBackCrawler
	// Predating counts the listed addresses that claimed a crawler whose
	// operator's range lists all postdate the logs.
	Predating int
}

// BlockEntry is one address of the block list.
type BlockEntry struct {
	Addr string
	// Reasons are its counts per kind ("disallowed 12, spoofed 12").
	Reasons string
	// Claims are the crawlers it claimed to be, with identity.
	Claims      []string
	First, Last time.Time
}

// A Column is one column of the bots table: a heading, whether it holds a
// number, and its value for a row. The HTML and Markdown reports both
// iterate over BotColumns, so a new metric is one entry here.
type Column struct {
	Head string
	// Title explains the heading (a tooltip in HTML).
	Title string
	// Num is true for a count: right-aligned, thousands separators.
	Num bool
	// Optional columns are left out of a table where they are 0 on every
	// row (the page says which).
	Optional bool
	// Silent columns are left out without a word where 0 on every row: a
	// column only some logs can fill (signed requests).
	Silent bool
	// Value returns the cell's number (Num) or text.
	Value func(*BotRow) any
}

// BotColumns are the metric columns of the bots table, after bot, host,
// identity and before the verdict.
var BotColumns = []Column{
	{Head: "requests", Title: "all its requests", Num: true, Value: func(r *BotRow) any { return r.Requests }},
	{Head: "robots.txt", Title: "requests for /robots.txt", Num: true, Value: func(r *BotRow) any { return r.RobotsFetches }},
	{Head: "disallowed", Title: "disallowed by its group in the robots.txt version in effect", Num: true, Value: func(r *BotRow) any { return r.Disallowed }},
	{Head: "in grace", Optional: true, Title: "disallowed, but allowed by the version in effect a grace period earlier (a cached copy)", Num: true, Value: func(r *BotRow) any { return r.DisallowedInGrace }},
	{Head: "unreachable", Optional: true, Title: "made while robots.txt was unreachable (5xx, 429) for its operator: complete disallow", Num: true, Value: func(r *BotRow) any { return r.DisallowedUnreachable }},
	{Head: "unavailable", Optional: true, Title: "disallowed by the version in effect, but made while robots.txt was unavailable (4xx) for its operator: allowed", Num: true, Value: func(r *BotRow) any { return r.AllowedUnavailable }},
	{Head: "user-triggered", Optional: true, Title: "robots.txt would disallow them, but a user set the fetch off and the operator states robots.txt does not apply", Num: true, Value: func(r *BotRow) any { return r.UserTriggered }},
	{Head: "delay", Optional: true, Title: "requests sooner than Crawl-delay after its previous one", Num: true, Value: func(r *BotRow) any { return r.CrawlDelayBreaches }},
	{Head: "rate", Optional: true, Title: "requests over the Request-rate in their window", Num: true, Value: func(r *BotRow) any { return r.RequestRateBreaches }},
	{Head: "visit", Optional: true, Title: "requests outside the Visit-time window (UTC)", Num: true, Value: func(r *BotRow) any { return r.VisitTimeBreaches }},
	{Head: "unaudited", Optional: true, Title: "requests no robots.txt version covered", Num: true, Value: func(r *BotRow) any { return r.Unaudited }},
	{Head: "IPs", Title: "distinct client addresses", Num: true, Value: func(r *BotRow) any { return r.IPs }},
	{Head: "signed", Optional: true, Silent: true, Title: "requests with a valid Web Bot Auth signature", Num: true, Value: func(r *BotRow) any { return r.Signed }},
}

// Section is a section of the reports, with its id, the anchor a link to it uses.
type Section struct {
	ID, Title string
}

// Sections are the sections of report.html, in the order a reader meets them.
var Sections = []Section{
	{"summary", "Summary"},
	{"bots", "Bots"},
	{"timeline", "Timeline"},
	{"rules", "Broken rules"},
	{"versions", "robots.txt versions"},
	{"changes", "Reactions to changes"},
	{"preferences", "AI-use preferences"},
	{"paths", "Disallowed paths"},
	{"breaches", "Breaches of limits"},
	{"referrals", "Referrals"},
	{"conduct", "Conduct"},
	{"blocklist", "Block list"},
	{"method", "Method"},
}

// ReactionRows is how many rows of summary.json's "changes" the reports
// show: those whose change added rules to the bot's group first.
const ReactionRows = 40

// Reactions returns the "changes" rows the reports show, and how many
// there are in all: first those whose change added rules to the bot's
// group, then the others, each in the order of summary.json. A change
// after the log's last request is left out: the log cannot show how any
// bot reacted to it.
func Reactions(s *Summary) ([]Change, int) {
	var with, without []Change
	n := 0
	for _, c := range s.Changes {
		if s.Input.To != nil && c.At.After(*s.Input.To) {
			continue
		}
		n++
		if len(c.AddedRules) > 0 {
			with = append(with, c)
		} else {
			without = append(without, c)
		}
	}
	rows := append(with, without...)
	if len(rows) > ReactionRows {
		rows = rows[:ReactionRows]
	}
	return rows, n
}

// Hours formats hours since a change ("3.1 h"); "–" for nil.
func Hours(h *float64) string {
	if h == nil {
		return "–"
	}
	return strconv.FormatFloat(*h, 'f', 1, 64) + " h"
}
