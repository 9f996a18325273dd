// Package report renders the results of an audit: the summary (contract §7)
// as JSON or as a terminal table, and the files of --out (violations.csv,
// breaches.csv, blocklist.txt), each written atomically. Strings that come
// from logs are attacker-controlled: CSV cells are neutralised against
// formula injection and block-list addresses are validated.
package report

import (
	"encoding/json"
	"io"
	"time"
)

// Summary is summary.json (contract §7, stable). Fields may be added, never
// renamed or removed.
type Summary struct {
	Input  Input        `json:"input"`
	Robots []RobotsHost `json:"robots"`
	Bots   []BotRow     `json:"bots"`
	// Audit describes how the audit was made.
	Audit AuditInfo `json:"audit"`
}

// Input accounts for every line read (contract §7, §9).
type Input struct {
	Files           int              `json:"files"`
	Lines           int64            `json:"lines"`
	Parsed          int64            `json:"parsed"`
	Rejected        int64            `json:"rejected"`
	Unaudited       int64            `json:"unaudited"`
	From            *time.Time       `json:"from"`
	To              *time.Time       `json:"to"`
	RejectedReasons map[string]int64 `json:"rejected_reasons"`
	// Directives counts format directive lines (W3C "#Fields:"): not
	// requests, so in neither parsed nor rejected.
	Directives int64 `json:"directives"`
	// OutsidePeriod counts parsed requests outside --from/--to.
	OutsidePeriod int64 `json:"outside_period"`
	// BotRequests and HumanRequests split the audited period's requests.
	BotRequests   int64 `json:"bot_requests"`
	HumanRequests int64 `json:"human_requests"`
	// Samples are the first rejected lines per reason.
	Samples []Sample `json:"rejected_samples,omitempty"`
	// Errors are input errors (unreadable file, truncated stream).
	Errors []string `json:"errors,omitempty"`
}

// Sample is one rejected line, cut to 200 characters.
type Sample struct {
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Text   string `json:"text"`
}

// RobotsHost is one host of the robots.txt history.
type RobotsHost struct {
	Host     string `json:"host"`
	Versions int    `json:"versions"`
	// First is when the first version went live (null: in effect for all time).
	First *time.Time `json:"first,omitempty"`
}

// BotRow holds the metrics of one bot on one host (contract §6).
type BotRow struct {
	Bot                 string    `json:"bot"`
	Host                string    `json:"host"`
	Operator            string    `json:"operator,omitempty"`
	Purpose             string    `json:"purpose,omitempty"`
	Requests            int64     `json:"requests"`
	RobotsFetches       int64     `json:"robots_fetches"`
	Disallowed          int64     `json:"disallowed"`
	DisallowedInGrace   int64     `json:"disallowed_in_grace"`
	CrawlDelayBreaches  int64     `json:"crawl_delay_breaches"`
	RequestRateBreaches int64     `json:"request_rate_breaches"`
	VisitTimeBreaches   int64     `json:"visit_time_breaches"`
	Unaudited           int64     `json:"unaudited"`
	IPs                 int64     `json:"ips"`
	FirstSeen           time.Time `json:"first_seen"`
	LastSeen            time.Time `json:"last_seen"`
	Verdict             string    `json:"verdict"`
}

// AuditInfo says how the audit was made.
type AuditInfo struct {
	Spec         string  `json:"spec"`
	GraceSeconds float64 `json:"grace_seconds"`
	// TimeResolution is "1s" when every timestamp is a whole second: then a
	// gap of 0 s means "within the same second", and Crawl-delay figures are
	// only good to a second.
	TimeResolution string `json:"time_resolution"`
	Robots         string `json:"robots"`
}

// Verdicts of BotRow.Verdict.
const (
	VerdictDisallowed = "ignores robots.txt" // at least one disallowed request
	VerdictBreaches   = "breaches limits"    // no disallowed request, but delay, rate or visit-time breaches
	VerdictGrace      = "stale copy"         // only requests disallowed within the cache grace period
	VerdictOK         = "ok"
	VerdictUnaudited  = "unaudited" // no request was covered by a robots.txt version
)

// Judge sets r.Verdict from its counts.
func (r *BotRow) Judge() {
	switch {
	case r.Disallowed > 0:
		r.Verdict = VerdictDisallowed
	case r.CrawlDelayBreaches+r.RequestRateBreaches+r.VisitTimeBreaches > 0:
		r.Verdict = VerdictBreaches
	case r.DisallowedInGrace > 0:
		r.Verdict = VerdictGrace
	case r.Unaudited == r.Requests:
		r.Verdict = VerdictUnaudited
	default:
		r.Verdict = VerdictOK
	}
}

// WriteJSON writes s as indented JSON.
func WriteJSON(w io.Writer, s *Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
