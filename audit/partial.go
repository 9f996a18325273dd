//go:build duckdb_arrow

package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// Column indices of PartialSchema.
const (
	PartialTS = iota
	PartialHost
	PartialBot
	PartialIdentity
	PartialFile
	PartialLine
	PartialVerdict
	PartialRobotsFetch
	PartialVisitBreach
	PartialCrawlDelay
	PartialRateRequests
	PartialRateSeconds
	PartialClientIP
	PartialStatus
	PartialOperator
	PartialUserTriggered
	PartialUserAgent
	PartialRule
	PartialCrawlDelayIgnored
	// What the request cost and how it was answered, for the bytes, the
	// status mix and the conduct of its bot row (see PartialSchema).
	PartialBytes
	PartialOtherMethod
	PartialURL
	PartialRetryAfter
	PartialPrefExposed
)

// PartialSchema is the schema of the judged bot requests of a partial
// audit (PartialAuditor.Judge): one row per request of a bot, with the
// names an audit's view "requests" joins back rather than ids, so that the
// rows of separate partial audits can be put together:
//
//   - ts: the request's time, UTC, µs;
//   - host: the judged host ("" when unknown); bot: the bot's name;
//   - identity: who made it: 0 unverified, 1 verified,
//     2 spoofed, as the column identity_code of the view "requests";
//   - file, line: the evidence;
//   - verdict: the judge's: allowed, disallowed, disallowed_in_grace,
//     unaudited, user_triggered; not yet the verdicts of robots.txt's
//     availability (disallowed_unreachable, allowed_unavailable), which
//     depend on the /robots.txt responses of other requests
//     (queries/availability.sql) and are left to the combination;
//   - robots_fetch: a request for /robots.txt; visit_breach: outside the
//     Visit-time window in force;
//   - crawl_delay, rate_requests, rate_seconds: the Crawl-delay and
//     Request-rate in force, NULL when none (or unaudited);
//   - client_ip: the client address in canonical form, NULL when the line
//     had none;
//   - status: the HTTP status, NULL when not logged;
//   - operator, user_triggered: the bot's operator ("" when none) and
//     whether it is a user-triggered fetcher to which robots.txt does not
//     apply, as the table "bots" holds them: what the
//     availability of robots.txt (queries/availability.sql) is kept by;
//   - user_agent: the User-Agent header, NULL when the line had none;
//   - rule: the rule that decided the verdict ("Disallow: /private/"),
//     NULL when none did;
//   - crawl_delay_ignored: the bot's operator says it ignores the
//     Crawl-delay in force (the column of the table "policies");
//   - bytes: the response bytes, NULL when not logged; other_method: its
//     method is logged and is neither GET nor HEAD; url: the target as
//     measure.URLHash numbers it, the same on every worker; retry_after_s:
//     the wait its answer's Retry-After asked for, NULL when none (the
//     column of the view "requests").
//   - pref_exposed: fetched, as robots.txt allowed, where the AI-use
//     preference in effect refuses the crawler's purpose (the column of
//     the view "requests").
var PartialSchema = arrow.NewSchema([]arrow.Field{
	PartialTS:                {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	PartialHost:              {Name: "host", Type: arrow.BinaryTypes.String},
	PartialBot:               {Name: "bot", Type: arrow.BinaryTypes.String},
	PartialIdentity:          {Name: "identity", Type: arrow.PrimitiveTypes.Uint8},
	PartialFile:              {Name: "file", Type: arrow.BinaryTypes.String},
	PartialLine:              {Name: "line", Type: arrow.PrimitiveTypes.Int64},
	PartialVerdict:           {Name: "verdict", Type: arrow.BinaryTypes.String},
	PartialRobotsFetch:       {Name: "robots_fetch", Type: arrow.FixedWidthTypes.Boolean},
	PartialVisitBreach:       {Name: "visit_breach", Type: arrow.FixedWidthTypes.Boolean},
	PartialCrawlDelay:        {Name: "crawl_delay", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	PartialRateRequests:      {Name: "rate_requests", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	PartialRateSeconds:       {Name: "rate_seconds", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	PartialClientIP:          {Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
	PartialStatus:            {Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	PartialOperator:          {Name: "operator", Type: arrow.BinaryTypes.String},
	PartialUserTriggered:     {Name: "user_triggered", Type: arrow.FixedWidthTypes.Boolean},
	PartialUserAgent:         {Name: "user_agent", Type: arrow.BinaryTypes.String, Nullable: true},
	PartialRule:              {Name: "rule", Type: arrow.BinaryTypes.String, Nullable: true},
	PartialCrawlDelayIgnored: {Name: "crawl_delay_ignored", Type: arrow.FixedWidthTypes.Boolean},
	PartialBytes:             {Name: "bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	PartialOtherMethod:       {Name: "other_method", Type: arrow.FixedWidthTypes.Boolean},
	PartialURL:               {Name: "url", Type: arrow.PrimitiveTypes.Uint64},
	PartialRetryAfter:        {Name: "retry_after_s", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	PartialPrefExposed:       {Name: "pref_exposed", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// BotInfo is what a partial audit knows of one bot name.
type BotInfo struct {
	Operator string `json:"operator,omitempty"`
	Purpose  string `json:"purpose,omitempty"`
	// Verifiable: the bot's operator publishes ranges or documents
	// reverse DNS (report.BotRow.Verifiable).
	Verifiable bool `json:"verifiable,omitempty"`
	// UserTriggered: robots.txt does not apply to it, as its operator
	// states (bots.CrawlerRule.UserTriggered).
	UserTriggered bool `json:"user_triggered,omitempty"`
	// PublishesRanges: its operator publishes the ranges it crawls from
	// (report.Conduct.PublishesRanges).
	PublishesRanges bool `json:"publishes_ranges,omitempty"`
}

// Partial is what a partial audit of some of an audit's logs hands on
// beside its judged rows: the accounting of their lines and what the
// combination needs to make one summary of all of them.
type Partial struct {
	// Input counts the lines of these logs as summary.json's "input" does
	// (Files, Lines, Parsed, Rejected, RejectedReasons, Directives,
	// Unaudited, OutsidePeriod, BotRequests, HumanRequests,
	// InvalidClients, their samples, Errors, Excluded). From and To are the
	// logs' first and last timestamps bounded by the period, nil when no
	// line parsed. Counts add up over partials; From and To are the least
	// and the greatest.
	Input report.Input `json:"input"`
	// LogFrom and LogTo are the logs' first and last timestamps, not
	// bounded by the period (nil when no line parsed): CheckAudited names
	// them.
	LogFrom *time.Time `json:"log_from,omitempty"`
	LogTo   *time.Time `json:"log_to,omitempty"`
	// Files are the files read, in the order the ingest layer took them
	// (a directory or glob expanded).
	Files []string `json:"files"`
	// WholeSeconds: every bot request's timestamp is a whole second.
	WholeSeconds bool `json:"whole_seconds"`
	// Bots holds, by bot name, what is known of each bot that made a
	// request.
	Bots map[string]BotInfo `json:"bots"`
	// Hosts are the judged host names that had requests ("" for lines
	// without a host), sorted.
	Hosts []string `json:"hosts"`
	// Identities counts the bot requests per identity (verified, spoofed,
	// unverified).
	Identities map[string]int64 `json:"identities"`
	// Warnings are what the user should know of these logs.
	Warnings []string `json:"warnings,omitempty"`
	// RefererSeen: a request of the period carried a Referer. Referred
	// are the human requests an operator's product referred, per judged
	// host; they add up over partials (ReferralSummary).
	RefererSeen bool            `json:"referer_seen,omitempty"`
	Referred    []ReferralCount `json:"referred,omitempty"`
	// RobotsResponses are the 200 answers to crawlers' GET /robots.txt
	// (not spoofed), for PartialAuditor.RobotsEvidence; RobotsDropped
	// counts those left out past the judge's bound.
	RobotsResponses []RobotsResponse `json:"robots_responses,omitempty"`
	RobotsDropped   int64            `json:"robots_dropped,omitempty"`
}

// RobotsEvidence is RobotsEvidence for the history of the audit and the
// RobotsResponses of all its parts, with the warnings to print; dropped
// sums their RobotsDropped.
func (a *PartialAuditor) RobotsEvidence(responses []RobotsResponse, dropped int64) ([]report.RobotsEvidence, []string) {
	ev, warns := RobotsEvidence(a.hist, responses)
	if w := robotsSizesWarning(dropped); w != "" {
		warns = append(warns, w)
	}
	return ev, warns
}

// PartialAuditor judges an audit's logs part by part, each part with the
// same judge code as Run, so that a distributed audit (cmd/crawlaudit-beam)
// can judge its input files on separate workers and combine their rows:
// every row gets the verdict, identity and limits Run gives it, and the
// counts of the parts add up to Run's. What depends on more than one
// request (the Crawl-delay and Request-rate windows, distinct addresses,
// the first and last request of a bot) is left to the combination.
//
// Its robots.txt history and range lists are loaded once, by
// NewPartialAuditor. A PartialAuditor is not safe for concurrent use.
type PartialAuditor struct {
	cfg      Config
	hist     *history.History
	ranges   *verify.Ranges
	warnings []string
	// rules is a judge made for AddedRules only, on first use; texts
	// caches the rule texts of the groups of the change textsOf.
	rules   *judge
	texts   groupTexts
	textsOf [2]int
}

// NewPartialAuditor loads what every part of the audit cfg needs: the
// robots.txt history (refused like Run refuses it) and the range lists
// (cfg.Ranges, or the built-in snapshot); cfg.History, when set, is the
// history, not loaded again. Config.DB, Timings and
// SeenClients are ignored: a partial audit stores nothing.
func NewPartialAuditor(cfg Config) (*PartialAuditor, error) {
	hist := cfg.History
	if hist == nil {
		var err error
		if hist, err = history.Load(cfg.Robots, history.Options{Host: cfg.Host}); err != nil {
			return nil, err
		}
	}
	robotsWarnings, err := checkRobots(hist, cfg.Robots, cfg.KeepGoing)
	if err != nil {
		return nil, err
	}
	ranges := cfg.Ranges
	if ranges == nil {
		if ranges, err = verify.Snapshot(); err != nil {
			return nil, fmt.Errorf("the built-in range lists: %w", err)
		}
	}
	return &PartialAuditor{cfg: cfg, hist: hist, ranges: ranges,
		warnings: append(append([]string(nil), hist.Warnings()...), robotsWarnings...)}, nil
}

// Base returns the parts of the summary that do not depend on the logs:
// robots (the history's hosts and versions), audit (with the time
// resolution of microseconds: a combination with every part's
// WholeSeconds makes it "1s") and verification (the range lists, with no
// identity counted yet). Bots and robots_status are empty, Input zero, and
// changes nil: how bots reacted to each robots.txt change is for the
// combination to make, per bot (VersionChanges, AddedRules).
func (a *PartialAuditor) Base() report.Summary {
	s := report.Summary{Bots: []report.BotRow{}}
	s.Input.RejectedReasons = map[string]int64{}
	s.Robots = robotsHosts(a.hist)
	s.Preferences = declaredPreferences(a.hist)
	s.Audit = report.AuditInfo{Spec: a.cfg.Profile.String(), GraceSeconds: a.cfg.Grace.Seconds(), Robots: a.cfg.Robots, TimeResolution: "1us"}
	s.Verification = verification(a.ranges, newClaims(readyRanges(a.ranges)), DNSOptions{}, DNSStats{})
	s.RobotsStatus = []report.RobotsPeriod{}
	s.RobotsEvidence = []report.RobotsEvidence{}
	return s
}

// Predating returns what summary.json's verification.predating_lists says
// of the combined bot rows: the requests left unverified because they came
// before their operator's first range list (nil when there are none), as
// Run finds it.
func (a *PartialAuditor) Predating(rows []report.BotRow) *report.Predating {
	return predating(rows, a.ranges)
}

// robotsHosts returns summary.json's "robots": each host of the history
// with its number of versions and when the first went live, by host.
func robotsHosts(hist *history.History) []report.RobotsHost {
	var out []report.RobotsHost
	for _, h := range hist.Hosts() {
		vs := hist.Versions(h)
		if hist.AnyHost() {
			vs = hist.All()
		}
		rh := report.RobotsHost{Host: h, Versions: len(vs)}
		if len(vs) > 0 && !vs[0].Start.IsZero() {
			t := vs[0].Start.UTC()
			rh.First = &t
		}
		rh.VersionsDetail = versionIntervals(vs)
		out = append(out, rh)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out
}

// versionIntervals returns summary.json's versions_detail of one host's
// versions: when each went live, and since when it may have been live when
// that is uncertain (history.Version.NotBefore).
func versionIntervals(vs []history.Version) []report.RobotsVersionInterval {
	out := make([]report.RobotsVersionInterval, 0, len(vs))
	for i, v := range vs {
		vi := report.RobotsVersionInterval{File: v.Name}
		if !v.Start.IsZero() {
			t := v.Start.UTC()
			vi.From = &t
		}
		// The first version has no version before it to be uncertain
		// with: requests before it stay unaudited.
		if i > 0 {
			if t, ok := uncertainSince(vs[i-1], v); ok {
				vi.NotBefore = &t
			}
		}
		out = append(out, vi)
	}
	return out
}

// Warnings returns what the user should know of the whole audit, whose
// parts had requests for hosts: the history's warnings, and that a
// history naming no host judged the requests of several hosts.
func (a *PartialAuditor) Warnings(hosts []string) []string {
	w := slices.Clone(a.warnings)
	if n := len(hosts); a.hist.AnyHost() && n > 1 {
		w = append(w, fmt.Sprintf("the robots.txt history %s names no host, so it judged the requests of all %d hosts in the logs; use a per-host directory or --host", a.cfg.Robots, n))
	}
	return w
}

// CheckAudited returns an error wrapping ErrNothingToAudit when the
// combined input of an audit yields nothing to audit, as Run
// does: in is the combined input, robots the history's hosts (Base),
// logFrom and logTo the logs' first and last timestamps (the least LogFrom
// and the greatest LogTo of the parts; zero when no line parsed), and hosts
// the hosts with requests.
func (a *PartialAuditor) CheckAudited(in *report.Input, robots []report.RobotsHost, logFrom, logTo time.Time, hosts []string) error {
	named := make([]string, len(hosts))
	for i, h := range hosts {
		named[i] = cmp.Or(h, "(none)")
	}
	sort.Strings(named)
	return nothingAudited(in, robots, a.cfg.Robots, logFrom, logTo, named)
}

// Judge judges logs (files, directories or globs; not "-") as Run does and
// calls sink with the judged bot requests, in batches of PartialSchema,
// once every log is read: until then a compressed file may still fail its
// integrity check, and then, as Run does, the logs are read again without
// it and none of its lines counts. A batch is released when sink returns.
// The rows are held in memory (as the compact batches Run sends to DuckDB)
// until the logs are read.
//
// Like Run, Judge returns the input error (an unreadable file, a truncated
// stream) together with a complete Partial, also when nothing could be
// read (Run then fails with the input error: whether the whole audit read
// nothing is for the combination to say); a sink error or a cancelled
// context is returned with a nil Partial.
func (a *PartialAuditor) Judge(ctx context.Context, logs []string, sink func(arrow.RecordBatch) error) (*Partial, error) {
	if slices.Contains(logs, "-") {
		return nil, errors.New("a partial audit cannot read standard input")
	}
	cfg := a.cfg
	cfg.Ingest.Exclude = slices.Clone(cfg.Ingest.Exclude)
	var damaged []*ingest.IntegrityError
	lines := map[string]int64{}
	for {
		p, err := a.judgeOnce(ctx, cfg, func(ctx context.Context, opts ingest.Options, sink func(arrow.RecordBatch) error) (*ingest.Accounting, error) {
			return ingest.Run(ctx, logs, opts, sink)
		}, damaged, sink)
		var again *damagedFiles
		if !errors.As(err, &again) {
			if p != nil {
				for _, d := range damaged {
					p.Input.Excluded = append(p.Input.Excluded, report.ExcludedFile{File: d.File, Lines: lines[d.File], Reason: strings.TrimPrefix(d.Error(), d.File+": ")})
					p.Warnings = append(p.Warnings, fmt.Sprintf("%s failed its integrity check, so none of its %d lines is audited: they are damage, not data", d.Error(), lines[d.File]))
				}
			}
			return p, err
		}
		for _, d := range again.errs {
			damaged = append(damaged, d)
			lines[d.File] = again.lines[d.File]
			cfg.Ingest.Exclude = append(cfg.Ingest.Exclude, d.File)
		}
	}
}

// JudgeRange judges one byte range of a plain log file
// (ingest.PlanRanges, ingest.RunRange) as Judge judges a whole file, and
// calls sink with its judged bot requests once the range is read. Its
// Partial counts the range's lines (and the file, when the range starts
// it: Input.Files), so that the Partials of a file's ranges add up to
// Judge's of the file; line numbers are the file's (r.NewlinesBefore).
func (a *PartialAuditor) JudgeRange(ctx context.Context, r ingest.Range, sink func(arrow.RecordBatch) error) (*Partial, error) {
	return a.judgeOnce(ctx, a.cfg, func(ctx context.Context, opts ingest.Options, sink func(arrow.RecordBatch) error) (*ingest.Accounting, error) {
		return ingest.RunRange(ctx, r, opts, sink)
	}, nil, sink)
}

// judgeOnce is one pass of Judge over what read reads (ingest.Run of the
// logs, without the files of damaged, whose errors it reports as input
// errors; or ingest.RunRange).
func (a *PartialAuditor) judgeOnce(ctx context.Context, cfg Config, read func(context.Context, ingest.Options, func(arrow.RecordBatch) error) (*ingest.Accounting, error), damaged []*ingest.IntegrityError, sink func(arrow.RecordBatch) error) (*Partial, error) {
	mem := cfg.Allocator
	if mem == nil {
		mem = ingest.NewPoolAllocator()
	}
	ident := bots.NewIdentifier()
	j, err := newJudgeContext(ctx, mem, a.hist, cfg.Profile, ident, readyRanges(a.ranges))
	if err != nil {
		return nil, err
	}
	defer j.release()
	configureJudge(j, cfg)

	var judged []arrow.RecordBatch
	defer func() {
		for _, rec := range judged {
			if rec != nil {
				rec.Release()
			}
		}
	}()
	filters := &humanFilters{ident: j.ident, fromUS: j.fromUS, toUS: j.toUS, trusted: j.trusted}
	opts := cfg.Ingest
	opts.RowFilter = filters.newFilter
	acc, inputErr := read(ctx, opts, func(rec arrow.RecordBatch) error {
		if err := j.add(rec); err != nil {
			return err
		}
		if j.pending() >= flushRows {
			judged = append(judged, j.flush())
		}
		return nil
	})
	if j.pending() > 0 {
		judged = append(judged, j.flush())
	}
	filters.addTo(j)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if acc == nil {
		if inputErr == nil {
			inputErr = errors.New("ingest returned no accounting")
		}
		return nil, inputErr
	}
	inputErr, stop := withDamaged(acc, inputErr, damaged)
	if stop != nil {
		return nil, stop
	}
	if err := j.claims.rangesErr(); err != nil {
		return nil, err
	}
	dnsStats, err := j.claims.applyDNS(ctx, cfg.DNS)
	if err != nil {
		return nil, err
	}
	for i, rec := range judged {
		out, err := j.partialBatch(mem, rec)
		if err != nil {
			return nil, err
		}
		rec.Release()
		judged[i] = nil
		err = sink(out)
		out.Release()
		if err != nil {
			return nil, err
		}
	}
	judged = nil
	p := j.partial(cfg, acc, ident)
	if w := dnsStats.warning(cfg.DNS.Resolver.BudgetOrDefault()); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	if inputErr != nil {
		p.Input.Errors = append(p.Input.Errors, inputErr.Error())
	}
	return p, inputErr
}

// configureJudge sets what cfg asks of j (runOnce and PartialAuditor).
func configureJudge(j *judge, cfg Config) {
	j.trusted = cfg.TrustedProxies
	j.graceUS = cfg.Grace.Microseconds()
	if cfg.Operators != nil {
		j.rules = cfg.Operators
	}
	j.graceForAll = cfg.GraceForAll
	if !cfg.From.IsZero() {
		j.fromUS = cfg.From.UnixMicro()
	}
	if !cfg.To.IsZero() {
		j.toUS = cfg.To.UnixMicro()
	}
}

// partial returns the Partial of j's logs, whose accounting is acc.
func (j *judge) partial(cfg Config, acc *ingest.Accounting, ident *bots.Identifier) *Partial {
	p := &Partial{WholeSeconds: j.wholeSeconds, Bots: map[string]BotInfo{}, Identities: j.claims.identityCounts()}
	p.RobotsResponses, p.RobotsDropped = j.robotsResponses(), j.sizes.dropped
	in := &p.Input
	*in = report.Input{
		Files:           acc.Files,
		Lines:           acc.Lines,
		Parsed:          acc.Parsed,
		Rejected:        acc.Rejected,
		RejectedReasons: acc.RejectedReasons,
		Directives:      acc.Directives,
		Unaudited:       j.unaudited,
		OutsidePeriod:   j.outside,
		InvalidClients:  acc.InvalidClients,
	}
	if in.RejectedReasons == nil {
		in.RejectedReasons = map[string]int64{}
	}
	for _, smp := range acc.Samples {
		in.Samples = append(in.Samples, report.Sample{Reason: smp.Reason, File: smp.File, Line: smp.Line, Text: smp.Text})
	}
	for _, smp := range acc.InvalidClientSamples {
		in.InvalidClientSamples = append(in.InvalidClientSamples, report.Sample{Reason: smp.Reason, File: smp.File, Line: smp.Line, Text: smp.Text})
	}
	for _, sk := range acc.Skipped {
		in.Skipped = append(in.Skipped, report.SkippedFile{Name: sk.Name, Reason: sk.Reason})
	}
	if !acc.From.IsZero() {
		from, to := acc.From.UTC(), acc.To.UTC()
		lf, lt := from, to
		p.LogFrom, p.LogTo = &lf, &lt
		if !cfg.From.IsZero() && from.Before(cfg.From) {
			from = cfg.From.UTC()
		}
		if !cfg.To.IsZero() && to.After(cfg.To) {
			to = cfg.To.UTC()
		}
		in.From, in.To = &from, &to
	}
	for h, t := range j.traffic() {
		in.HumanRequests += t.humans
		in.BotRequests += t.bots
		p.Hosts = append(p.Hosts, h)
	}
	sort.Strings(p.Hosts)
	p.RefererSeen, p.Referred = j.refererSeen, j.referralCounts()
	for _, f := range acc.PerFile {
		p.Files = append(p.Files, f.Name)
	}
	for _, u := range j.uas {
		b := u.bot
		if !b.IsBot {
			continue
		}
		if _, ok := p.Bots[b.Name]; !ok {
			p.Bots[b.Name] = BotInfo{Operator: b.Operator, Purpose: b.Purpose, Verifiable: j.claims.ranges().Verifiable(b.Name), UserTriggered: u.rule.UserTriggered,
				PublishesRanges: publishesRanges(j.claims.ranges(), b.Name, "")}
		}
	}
	if n := ident.UAPSkipped(); n > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%d distinct User-Agents were not handed to the User-Agent parser, which gets at most %d a run to bound its time: they count as bots only if the crawler table or a crawler word names them", n, bots.MaxUAPCalls))
	}
	return p
}

// partialBatch returns the rows of rec, a batch of RequestsSchema, as a
// batch of PartialSchema (the caller releases it), its ids resolved with
// j's dict, policies, decisions and claims.
func (j *judge) partialBatch(mem memory.Allocator, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if !rec.Schema().Equal(RequestsSchema) {
		return nil, fmt.Errorf("judged batch of schema %s, want RequestsSchema", rec.Schema())
	}
	b := array.NewRecordBuilder(mem, PartialSchema)
	defer b.Release()
	n := int(rec.NumRows())
	for _, f := range b.Fields() {
		f.Reserve(n)
	}
	var (
		ts       = rec.Column(rcTS).(*array.Timestamp)
		host     = rec.Column(rcHostID).(*array.Int32)
		ipID     = rec.Column(rcClientIPID).(*array.Int32)
		ipStr    = rec.Column(rcClientIP).(*array.String)
		uaID     = rec.Column(rcUserAgentID).(*array.Int32)
		uaStr    = rec.Column(rcUserAgent).(*array.String)
		bot      = rec.Column(rcBotID).(*array.Int32)
		file     = rec.Column(rcFileID).(*array.Int32)
		line     = rec.Column(rcLine).(*array.Int64)
		policy   = rec.Column(rcPolicyID).(*array.Int32)
		decision = rec.Column(rcDecisionID).(*array.Int32)
		visit    = rec.Column(rcVisitBreach).(*array.Boolean)
		fetch    = rec.Column(rcRobotsFetch).(*array.Boolean)
		claim    = rec.Column(rcClaimID).(*array.Int32)
		status   = rec.Column(rcStatus).(*array.Int32)
		bytes    = rec.Column(rcBytes).(*array.Int64)
		method   = rec.Column(rcMethodID).(*array.Int32)
		targetID = rec.Column(rcTargetID).(*array.Int32)
		target   = rec.Column(rcTarget).(*array.String)
		retry    = rec.Column(rcRetryAfter).(*array.Int32)
		exposed  = rec.Column(rcPrefExposed).(*array.Boolean)

		oTS       = b.Field(PartialTS).(*array.TimestampBuilder)
		oHost     = b.Field(PartialHost).(*array.StringBuilder)
		oBot      = b.Field(PartialBot).(*array.StringBuilder)
		oIdentity = b.Field(PartialIdentity).(*array.Uint8Builder)
		oFile     = b.Field(PartialFile).(*array.StringBuilder)
		oLine     = b.Field(PartialLine).(*array.Int64Builder)
		oVerdict  = b.Field(PartialVerdict).(*array.StringBuilder)
		oFetch    = b.Field(PartialRobotsFetch).(*array.BooleanBuilder)
		oVisit    = b.Field(PartialVisitBreach).(*array.BooleanBuilder)
		oDelay    = b.Field(PartialCrawlDelay).(*array.Float64Builder)
		oRateN    = b.Field(PartialRateRequests).(*array.Int32Builder)
		oRateS    = b.Field(PartialRateSeconds).(*array.Int32Builder)
		oIP       = b.Field(PartialClientIP).(*array.StringBuilder)
		oStatus   = b.Field(PartialStatus).(*array.Int32Builder)
		oOperator = b.Field(PartialOperator).(*array.StringBuilder)
		oUser     = b.Field(PartialUserTriggered).(*array.BooleanBuilder)
		oUA       = b.Field(PartialUserAgent).(*array.StringBuilder)
		oRule     = b.Field(PartialRule).(*array.StringBuilder)
		oIgnored  = b.Field(PartialCrawlDelayIgnored).(*array.BooleanBuilder)
		oBytes    = b.Field(PartialBytes).(*array.Int64Builder)
		oOther    = b.Field(PartialOtherMethod).(*array.BooleanBuilder)
		oURL      = b.Field(PartialURL).(*array.Uint64Builder)
		oRetry    = b.Field(PartialRetryAfter).(*array.Int32Builder)
		oExposed  = b.Field(PartialPrefExposed).(*array.BooleanBuilder)
	)
	// What the table "bots" holds of each bot name: its first state's
	// (storeTables).
	type botRules struct {
		operator      string
		userTriggered bool
	}
	botOf := map[int32]botRules{}
	for _, u := range j.uas {
		if _, ok := botOf[u.botID]; !ok && u.bot.IsBot {
			botOf[u.botID] = botRules{u.bot.Operator, u.rule.UserTriggered}
		}
	}
	name := func(id int32) (string, error) {
		if id < 0 || int(id) >= len(j.dict) {
			return "", fmt.Errorf("judged row with dict id %d of %d", id, len(j.dict))
		}
		return j.dict[id], nil
	}
	for i := 0; i < n; i++ {
		oTS.Append(ts.Value(i))
		for _, c := range []struct {
			id  int32
			out *array.StringBuilder
		}{{host.Value(i), oHost}, {bot.Value(i), oBot}, {file.Value(i), oFile}} {
			s, err := name(c.id)
			if err != nil {
				return nil, err
			}
			c.out.Append(s)
		}
		cl := claim.Value(i)
		if cl < 0 || int(cl) >= len(j.claims.list) {
			return nil, fmt.Errorf("judged row with claim %d of %d", cl, len(j.claims.list))
		}
		oIdentity.Append(uint8(j.claims.list[cl].check.Identity))
		oLine.Append(line.Value(i))
		d := decision.Value(i)
		if d < 0 || int(d) >= len(j.decisions) {
			return nil, fmt.Errorf("judged row with decision %d of %d", d, len(j.decisions))
		}
		v, err := name(j.decisions[d].verdict)
		if err != nil {
			return nil, err
		}
		oVerdict.Append(v)
		if r := j.decisions[d].rule; r >= 0 {
			rule, err := name(r)
			if err != nil {
				return nil, err
			}
			oRule.Append(rule)
		} else {
			oRule.AppendNull()
		}
		oFetch.Append(fetch.Value(i))
		oVisit.Append(visit.Value(i))
		oExposed.Append(exposed.Value(i))
		if policy.IsNull(i) {
			oDelay.AppendNull()
			oRateN.AppendNull()
			oRateS.AppendNull()
			oIgnored.Append(false)
		} else {
			id := policy.Value(i)
			if id < 0 || int(id) >= len(j.policies) {
				return nil, fmt.Errorf("judged row with policy %d of %d", id, len(j.policies))
			}
			p := j.policies[id]
			oIgnored.Append(p.delayIgnored)
			if p.hasDelay {
				oDelay.Append(p.crawlDelay)
			} else {
				oDelay.AppendNull()
			}
			if p.hasRate {
				oRateN.Append(p.rateN)
				oRateS.Append(p.rateS)
			} else {
				oRateN.AppendNull()
				oRateS.AppendNull()
			}
		}
		switch {
		case !ipID.IsNull(i):
			s, err := name(ipID.Value(i))
			if err != nil {
				return nil, err
			}
			oIP.Append(s)
		case !ipStr.IsNull(i):
			oIP.Append(ipStr.Value(i))
		default:
			oIP.AppendNull()
		}
		if status.IsNull(i) {
			oStatus.AppendNull()
		} else {
			oStatus.Append(status.Value(i))
		}
		br, ok := botOf[bot.Value(i)]
		if !ok {
			return nil, fmt.Errorf("judged row of bot %d, which the judge does not know", bot.Value(i))
		}
		oOperator.Append(br.operator)
		oUser.Append(br.userTriggered)
		switch {
		case !uaID.IsNull(i):
			ua, err := name(uaID.Value(i))
			if err != nil {
				return nil, err
			}
			oUA.Append(ua)
		case !uaStr.IsNull(i):
			oUA.Append(uaStr.Value(i))
		default:
			oUA.AppendNull()
		}
		if bytes.IsNull(i) {
			oBytes.AppendNull()
		} else {
			oBytes.Append(bytes.Value(i))
		}
		oOther.Append(method.IsValid(i) && !j.plainMethod(method.Value(i)))
		t := target.Value(i) // "" when NULL, as the judge reads it
		if targetID.IsValid(i) {
			if t, err = name(targetID.Value(i)); err != nil {
				return nil, err
			}
		}
		oURL.Append(measure.URLHash(t))
		if retry.IsNull(i) {
			oRetry.AppendNull()
		} else {
			oRetry.Append(retry.Value(i))
		}
	}
	return b.NewRecordBatch(), nil
}

// VersionChange is one change of a host's robots.txt history, as
// summary.json's "changes" follows it.
type VersionChange struct {
	Host string
	// Version is the version that took effect At; Previous the one it
	// replaced.
	Version, Previous string
	// At is the change; Until the end of the window in which the bots'
	// reactions are looked for: 30 days later, or the next change.
	At, Until time.Time
	// prev and cur are the versions' IDs.
	prev, cur int
}

// VersionChanges returns the changes of the history of host (a name the
// judged requests carry), in time order, as Run's "changes" takes them.
func (a *PartialAuditor) VersionChanges(host string) []VersionChange {
	var out []VersionChange
	for hi := 0; hi < a.hist.NumHosts(); hi++ {
		if a.hist.HostName(hi) != host {
			continue
		}
		versions := a.hist.Versions(host)
		for _, vc := range measure.VersionChanges(versionStarts(versions)) {
			out = append(out, VersionChange{Host: host, Version: versions[vc.K].Name, Previous: versions[vc.K-1].Name,
				At: vc.At, Until: vc.Until, prev: versions[vc.K-1].ID, cur: versions[vc.K].ID})
		}
	}
	return out
}

// AddedRules returns the rule texts of the group of bot, for a request
// with the User-Agent header ua, in c's version that its group in the
// previous version lacks, as Run's "changes" gives them.
func (a *PartialAuditor) AddedRules(c VersionChange, ua, bot string) []string {
	if a.rules == nil {
		a.rules = newJudge(memory.DefaultAllocator, a.hist, a.cfg.Profile, bots.NewIdentifier(), readyRanges(a.ranges))
		configureJudge(a.rules, a.cfg)
	}
	if a.texts == nil || a.textsOf != [2]int{c.prev, c.cur} {
		a.texts, a.textsOf = groupTexts{}, [2]int{c.prev, c.cur}
	}
	return addedRules(a.rules, a.texts, c.prev, c.cur, ua, bot)
}

// FoldBotRows folds the bot rows of a summary past Run's limit (100,000
// rows) into one row per host and identity, named "(N other bots)", as Run
// folds them: rows must be in the summary's order. It returns the rows to
// keep with the folded ones after them, and how many rows were folded
// (report.Input.FoldedBotRows).
func FoldBotRows(rows []report.BotRow) ([]report.BotRow, int64) {
	if len(rows) <= maxSummaryBots {
		return rows, 0
	}
	var folds botFolds
	for i := maxSummaryBots; i < len(rows); i++ {
		folds.add(&rows[i])
	}
	return append(rows[:maxSummaryBots:maxSummaryBots], folds.rows()...), folds.n
}
