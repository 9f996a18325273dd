package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Summary is summary.json, a stable format that scripts read: fields may be
// added, never renamed or removed.
type Summary struct {
	Input  Input        `json:"input"`
	Robots []RobotsHost `json:"robots"`
	Bots   []BotRow     `json:"bots"`
	// Audit describes how the audit was made.
	Audit AuditInfo `json:"audit"`
	// Verification says how the identity of each bot row was established.
	Verification *Verification `json:"verification,omitempty"`
	// RobotsStatus are the periods in which robots.txt was unreachable or
	// unavailable to an operator's crawlers, as the logs' own /robots.txt
	// responses show.
	RobotsStatus []RobotsPeriod `json:"robots_status"`
	// Changes say how each bot reacted to each robots.txt version change.
	Changes []Change `json:"changes"`
	// WhatIf compares the bot requests' verdicts with those a proposed
	// robots.txt would give (--what-if); nil without it.
	WhatIf []WhatIfRow `json:"what_if,omitempty"`
	// Blocklist says what the block list took and held back
	// (BlocklistSummary); nil when none was made.
	Blocklist *BlocklistSummary `json:"blocklist,omitempty"`
	// Signatures are the signed requests (Web Bot Auth) per signer, key
	// and outcome; omitted when no request was signed.
	Signatures []SignatureRow `json:"signatures,omitempty"`
	// Referrals are the operators' crawl requests against the people
	// their products sent, per host (Referral); absent when there are
	// none, or when the log has no Referer (Input.NoReferer).
	Referrals []Referral `json:"referrals,omitempty"`
	// RobotsEvidence are the changes of robots.txt that the logs' own
	// /robots.txt answers show and the history lacks.
	RobotsEvidence []RobotsEvidence `json:"robots_evidence"`
	// Preferences are the AI-use preferences each robots.txt version
	// declared (PreferenceVersion); omitted when no version declares any.
	Preferences []PreferenceVersion `json:"preferences,omitempty"`
}

// SignatureRow is one entry of summary.json's "signatures": the requests
// signed by one signer's key with one outcome (webbotauth.Status), and the
// bots they were judged as (empty when they stayed browser requests).
type SignatureRow struct {
	Signer   string   `json:"signer"`
	Key      string   `json:"key"`
	Status   string   `json:"status"`
	Requests int64    `json:"requests"`
	Bots     []string `json:"bots"`
}

// RobotsEvidence is one entry of summary.json's "robots_evidence": the
// 200 answers to crawlers' GET /robots.txt on Host went from BytesBefore
// (the last such answer, at After, to a crawler that later got the new
// size) to BytesAfter (a size not seen before on the host, first at
// Before, then seen by the crawlers of at least two Operators), and no
// version of the robots.txt history goes live in between.
type RobotsEvidence struct {
	Host        string    `json:"host"`
	After       time.Time `json:"after"`
	Before      time.Time `json:"before"`
	BytesBefore int64     `json:"bytes_before"`
	BytesAfter  int64     `json:"bytes_after"`
	Operators   []string  `json:"operators"`
}

// Kinds of RobotsPeriod.
const (
	// PeriodUnreachable: after a 5xx or 429 response, until the next 2xx
	// or 4xx (at most 30 days): complete disallow (RFC 9309 §2.3.1.4).
	PeriodUnreachable = "unreachable"
	// PeriodUnavailable: after a 4xx response other than 429, until the
	// next 2xx or 5xx: the crawler may access anything (RFC 9309
	// §2.3.1.3).
	PeriodUnavailable = "unavailable"
)

// RobotsPeriod is one entry of summary.json's "robots_status".
type RobotsPeriod struct {
	Host     string    `json:"host"`
	Operator string    `json:"operator"`
	Kind     string    `json:"kind"`
	From     time.Time `json:"from"`
	// To is when it ended: the next response of another kind, or 30 days
	// after From for an unreachable period; nil when it lasts past the
	// logs' end.
	To *time.Time `json:"to"`
	// Status, Bot, File and Line are the response that opened it: its
	// status, the crawler that got it, and the log line.
	Status int    `json:"status"`
	Bot    string `json:"bot"`
	File   string `json:"file"`
	Line   int64  `json:"line"`
	// Requests are the operator's requests (other than for /robots.txt)
	// made during the period; Affected those whose verdict it changed
	// (to disallowed_unreachable or allowed_unavailable).
	Requests int64 `json:"requests"`
	Affected int64 `json:"affected"`
}

// Change is one entry of summary.json's "changes": how one bot reacted to
// one robots.txt version change on one host. The times are
// nil when the event did not happen within the bot's requests of the 30
// days after the change; the hours are counted from At.
type Change struct {
	Host string `json:"host"`
	// Version is the version that took effect At; Previous the one it
	// replaced.
	Version  string    `json:"version"`
	Previous string    `json:"previous"`
	At       time.Time `json:"at"`
	// AddedRules counts the rules of the bot's group the change added
	// (Disallow lines and stricter limits), as rule texts.
	AddedRules []string `json:"added_rules"`
	Bot        string   `json:"bot"`
	Identity   string   `json:"identity"`
	// FirstRobotsFetch is the bot's first /robots.txt request after At.
	FirstRobotsFetch   *time.Time `json:"first_robots_fetch"`
	HoursToRobotsFetch *float64   `json:"hours_to_robots_fetch"`
	// FirstObeying is its first request, after At, that an added rule
	// governs and that obeys it (a request elsewhere says nothing).
	FirstObeying   *time.Time `json:"first_obeying"`
	HoursToObeying *float64   `json:"hours_to_obeying"`
	// LastBreaking is its last request, after At, that broke an added rule.
	LastBreaking        *time.Time `json:"last_breaking"`
	HoursToLastBreaking *float64   `json:"hours_to_last_breaking"`
	// Breaking counts its requests after At that broke an added rule.
	Breaking int64 `json:"breaking"`
}

// WhatIfRow is one entry of summary.json's "what_if": for one bot and host,
// the requests a proposed robots.txt would judge otherwise than the
// versions in effect did.
type WhatIfRow struct {
	Bot             string `json:"bot"`
	Host            string `json:"host"`
	Requests        int64  `json:"requests"`
	NewlyDisallowed int64  `json:"newly_disallowed"`
	NewlyAllowed    int64  `json:"newly_allowed"`
	// TopPaths are the paths with the most requests of each kind.
	TopPaths WhatIfPaths `json:"top_paths"`
}

// WhatIfPaths are the top paths of a WhatIfRow.
type WhatIfPaths struct {
	NewlyDisallowed []PathRequests `json:"newly_disallowed"`
	NewlyAllowed    []PathRequests `json:"newly_allowed"`
}

// PathRequests is a path with its number of requests.
type PathRequests struct {
	Path     string `json:"path"`
	Requests int64  `json:"requests"`
}

// Verification is summary.json's "verification": the range lists used, what
// reverse DNS did, and how many bot requests each identity holds.
type Verification struct {
	// Sources are the operators' range lists, with their history.
	Sources []RangeSource `json:"sources"`
	// Identities counts bot requests per identity (verified, spoofed,
	// unverified).
	Identities map[string]int64 `json:"identities"`
	// DNS says what forward-confirmed reverse DNS did (nil: not used).
	DNS any `json:"rdns,omitempty"`
	// Predating are the bot requests left unverified because they predate
	// every range list of their crawler's operator (nil: none).
	Predating *Predating `json:"predating_lists,omitempty"`
}

// RangeSource is one published range list and the versions of it in use.
type RangeSource struct {
	Name     string    `json:"name"`
	Operator string    `json:"operator"`
	URL      string    `json:"url"`
	Versions int       `json:"versions"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
	// Origin is where the lists come from: the built-in snapshot (with the
	// date it was made) or a --ranges directory.
	Origin string `json:"origin"`
	// Refused are the lists of a --ranges directory not trusted, with
	// why; Dropped the lists used without some special-purpose entries.
	// Each is absent when empty.
	Refused []RangeListNote `json:"refused,omitempty"`
	Dropped []RangeListNote `json:"dropped,omitempty"`
}

// RangeListNote is one list of a --ranges directory that was refused, or
// used without some entries, with the reasons.
type RangeListNote struct {
	File    string    `json:"file"`
	Created time.Time `json:"created"`
	Reasons []string  `json:"reasons"`
}

// Input accounts for every line read, so that a line rejected as bad
// input is counted and shown, never silently lost.
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
	// InvalidClients counts per reason the requests whose client address
	// is not an IP address ("999.1.1.1", "1.2.3.4:8080", a host name): kept
	// with no address, never on a block list, which must name an address.
	InvalidClients map[string]int64 `json:"invalid_clients,omitempty"`
	// InvalidClientSamples are the first of them per reason.
	InvalidClientSamples []Sample `json:"invalid_client_samples,omitempty"`
	// Errors are input errors (unreadable file, truncated stream).
	Errors []string `json:"errors,omitempty"`
	// Excluded are the compressed files that failed their integrity check:
	// none of their lines is audited, since a corrupt archive may
	// hold any bytes at all.
	Excluded []ExcludedFile `json:"excluded,omitempty"`
	// Skipped are the files of directories and globs, and the objects of
	// object-storage prefixes and globs, that were not read, and why (not a
	// log by its name; its key dated outside --from/--to).
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// FoldedBotRows counts the bot rows past the summary's limit (logs
	// with more than 100,000 of them), folded into one
	// row per host and identity named "(N other bots)"; the audit's
	// database keeps every row.
	FoldedBotRows int64 `json:"folded_bot_rows,omitempty"`
	// NoReferer: no request of the period carries a Referer, so the log
	// most likely does not record it and referrals cannot be counted
	// (rather than there being none).
	NoReferer bool `json:"no_referer,omitempty"`
}

// SkippedFile is a file or object found under a LOG argument that was not
// read, and why.
type SkippedFile struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// ExcludedFile is a log file the audit left out, and why.
type ExcludedFile struct {
	File string `json:"file"`
	// Lines is how many lines were decompressed before the check failed.
	Lines int64 `json:"lines"`
	// Reason names the member and the offset where the check failed.
	Reason string `json:"reason"`
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
	// VersionsDetail lists the versions in time order, with the interval
	// in which each may have gone live.
	VersionsDetail []RobotsVersionInterval `json:"versions_detail"`
}

// RobotsVersionInterval is one version of a host's robots.txt history in
// summary.json's "robots": File is its file (or commit) as named in
// changes; From the instant it was surely live, which judges requests
// (null: in effect for all time); NotBefore the earliest instant it may
// have gone live, when that is uncertain (a history rebuilt from the web
// archive), else null. A request in [NotBefore, From) is judged by this
// version and the one before.
type RobotsVersionInterval struct {
	File      string     `json:"file"`
	From      *time.Time `json:"from"`
	NotBefore *time.Time `json:"not_before"`
}

// BotRow holds the metrics of one bot on one host, as
// docs/reading-the-audit.md defines them.
type BotRow struct {
	Bot  string `json:"bot"`
	Host string `json:"host"`
	// Identity is who made the row's requests: verified,
	// spoofed or unverified. A bot with requests of several identities on
	// one host has one row per identity.
	Identity string `json:"identity"`
	// Operator is the bot's operator; empty on a spoofed row, whose
	// requests the operator did not make.
	Operator          string `json:"operator,omitempty"`
	Purpose           string `json:"purpose,omitempty"`
	Requests          int64  `json:"requests"`
	RobotsFetches     int64  `json:"robots_fetches"`
	Disallowed        int64  `json:"disallowed"`
	DisallowedInGrace int64  `json:"disallowed_in_grace"`
	// DisallowedUnreachable: requests made while robots.txt was
	// unreachable for the bot's operator, when the crawler must assume a
	// complete disallow (RFC 9309 §2.3.1.4).
	DisallowedUnreachable int64 `json:"disallowed_unreachable"`
	// AllowedUnavailable: requests the version in effect disallows, made
	// while robots.txt was unavailable for the bot's operator; not counted
	// in Disallowed.
	AllowedUnavailable int64 `json:"allowed_unavailable"`
	// UserTriggered: requests robots.txt would disallow, made by a
	// user-triggered fetcher that robots.txt does not apply to; not
	// counted in Disallowed.
	UserTriggered       int64     `json:"user_triggered"`
	CrawlDelayBreaches  int64     `json:"crawl_delay_breaches"`
	RequestRateBreaches int64     `json:"request_rate_breaches"`
	VisitTimeBreaches   int64     `json:"visit_time_breaches"`
	Unaudited           int64     `json:"unaudited"`
	IPs                 int64     `json:"ips"`
	FirstSeen           time.Time `json:"first_seen"`
	LastSeen            time.Time `json:"last_seen"`
	Verdict             string    `json:"verdict"`
	// CrawlDelayUnsupported: requests that came sooner than Crawl-delay
	// after the bot's previous one, from a crawler whose operator says it
	// ignores Crawl-delay (Google's; Yandex's since 2018); not counted in
	// CrawlDelayBreaches, and no finding against the crawler.
	CrawlDelayUnsupported int64 `json:"crawl_delay_unsupported"`
	// Verifiable tells that the bot's operator publishes ranges or
	// documents reverse DNS, so that its identity could be established.
	Verifiable bool `json:"-"`
	// Signed: the row's requests with a valid Web Bot Auth signature.
	Signed int64 `json:"signed"`
	// Bytes is what its requests cost: the response bytes summed, a
	// request whose log has no size counting 0. Status counts its requests
	// by answer; Conduct is how it behaved (conduct.go).
	Bytes   int64     `json:"bytes"`
	Status  StatusMix `json:"status"`
	Conduct Conduct   `json:"conduct"`
	// PrefExposed: requests of a crawler whose purpose the AI-use
	// preference in effect (Content-Usage, Content-Signal) refuses for
	// the path fetched. Exposure, not a violation: preferences govern use,
	// not fetching, so it is in no other count and no finding. 0 when the
	// site states no preference.
	PrefExposed int64 `json:"pref_exposed"`
}

// Identities of BotRow.Identity.
const (
	IdentityVerified   = "verified"
	IdentitySpoofed    = "spoofed"
	IdentityUnverified = "unverified"
)

// Label returns the bot's name as a person reads it in a table: with
// "(spoofed)" on a spoofed row, and "(unverified)" where the operator
// publishes how to verify its crawler but nothing settled these requests.
func (r *BotRow) Label() string {
	switch {
	case r.Identity == IdentitySpoofed:
		return r.Bot + " (spoofed)"
	case r.Identity == IdentityUnverified && r.Verifiable:
		return r.Bot + " (unverified)"
	}
	return r.Bot
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

// Verdicts of BotRow.Verdict: one word for a bot and host in the summary,
// where audit's Verdict constants name what the judge said of one request.
const (
	VerdictIgnoresRobots = "ignores robots.txt" // at least one disallowed request
	VerdictSpoofed       = "spoofed"            // a spoofed row: not the crawler it claims to be, whatever it did
	VerdictBreaches      = "breaches limits"    // no disallowed request, but delay, rate or visit-time breaches
	VerdictGrace         = "stale copy"         // only requests disallowed within the cache grace period
	VerdictOK            = "ok"
	VerdictUnaudited     = "unaudited" // no request was covered by a robots.txt version
)

// Judge sets r.Verdict from its counts.
func (r *BotRow) Judge() {
	switch {
	case r.Identity == IdentitySpoofed:
		// The crawler named did not make these requests: saying that it
		// ignores robots.txt would blame its operator.
		r.Verdict = VerdictSpoofed
	case r.Disallowed > 0 || r.DisallowedUnreachable > 0:
		r.Verdict = VerdictIgnoresRobots
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

// WriteJSON writes s as indented JSON (json.Encoder's bytes with an indent
// of two spaces), one bot row at a time: the summary can hold 100,000 rows
// and more (50 MB and more of JSON), which an Encoder builds whole in
// memory, and keeps in its pool, before it writes a byte.
func WriteJSON(w io.Writer, s *Summary) error {
	if len(s.Bots) == 0 {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	// The summary without its rows: "bots": [] stands where they go.
	head := *s
	head.Bots = []BotRow{}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	const empty = "\n  \"bots\": []"
	doc := buf.Bytes()
	at := bytes.Index(doc, []byte(empty))
	if at < 0 {
		return fmt.Errorf("summary JSON without a top-level bots array")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(doc[:at+len(empty)-1]) // up to the [
	for i := range s.Bots {
		row, err := json.MarshalIndent(&s.Bots[i], "    ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("\n    ")
		bw.Write(row)
		if i < len(s.Bots)-1 {
			bw.WriteByte(',')
		}
	}
	bw.WriteString("\n  ]")
	bw.Write(doc[at+len(empty):])
	return bw.Flush()
}
