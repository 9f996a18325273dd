//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"

	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// summarize fills res.Summary from the accounting, the history and the
// summary query.
func (res *Result) summarize(ctx context.Context, cfg Config, hist *history.History, j *judge, acc *ingest.Accounting) error {
	s := &res.Summary
	s.Input = report.Input{
		Files:           acc.Files,
		Lines:           acc.Lines,
		Parsed:          acc.Parsed,
		Rejected:        acc.Rejected,
		RejectedReasons: acc.RejectedReasons,
		Directives:      acc.Directives,
		Unaudited:       j.unaudited,
		OutsidePeriod:   j.outside,
	}
	if s.Input.RejectedReasons == nil {
		s.Input.RejectedReasons = map[string]int64{}
	}
	for _, smp := range acc.Samples {
		s.Input.Samples = append(s.Input.Samples, report.Sample{Reason: smp.Reason, File: smp.File, Line: smp.Line, Text: smp.Text})
	}
	s.Input.InvalidClients = acc.InvalidClients
	for _, sk := range acc.Skipped {
		s.Input.Skipped = append(s.Input.Skipped, report.SkippedFile{Name: sk.Name, Reason: sk.Reason})
	}
	for _, smp := range acc.InvalidClientSamples {
		s.Input.InvalidClientSamples = append(s.Input.InvalidClientSamples, report.Sample{Reason: smp.Reason, File: smp.File, Line: smp.Line, Text: smp.Text})
	}
	if !acc.From.IsZero() {
		from, to := acc.From.UTC(), acc.To.UTC()
		if !cfg.From.IsZero() && from.Before(cfg.From) {
			from = cfg.From.UTC()
		}
		if !cfg.To.IsZero() && to.After(cfg.To) {
			to = cfg.To.UTC()
		}
		s.Input.From, s.Input.To = &from, &to
	}
	for _, t := range j.traffic() {
		s.Input.HumanRequests += t.humans
		s.Input.BotRequests += t.bots
	}
	s.Robots = robotsHosts(hist)
	var warns []string
	s.RobotsEvidence, warns = RobotsEvidence(hist, j.robotsResponses())
	res.Warnings = append(res.Warnings, warns...)
	if w := robotsSizesWarning(j.sizes.dropped); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	s.Preferences = declaredPreferences(hist)
	s.Audit = report.AuditInfo{Spec: cfg.Profile.String(), GraceSeconds: cfg.Grace.Seconds(), Robots: cfg.Robots, TimeResolution: "1us"}
	if j.wholeSeconds {
		s.Audit.TimeResolution = "1s"
	}

	if err := requestCounts(ctx, res.store, res.lean); err != nil {
		return err
	}
	// The counts of the requests first: the judge's measures may still be
	// sorting on the other core (streamKeys.measure).
	if err := res.store.Exec(ctx, queries.SQL("summary_counts.sql")); err != nil {
		return err
	}
	if err := j.measured.store(ctx, res.store); err != nil {
		return err
	}
	if err := res.store.Exec(ctx, queries.SQL("summary_counted.sql")); err != nil {
		return err
	}
	if err := res.store.Exec(ctx, fmt.Sprintf("SET VARIABLE summary_max_bots = %d", maxSummaryBots)); err != nil {
		return err
	}
	rows, err := res.store.Query(ctx, queries.SQL("summary.sql"))
	if err != nil {
		return err
	}
	defer rows.Close()
	s.Bots = []report.BotRow{}
	// Past maxSummaryBots rows, summary.sql folds the rest, per host and
	// identity, into one row each: DuckDB keeps them all.
	var folds botFolds
	for rows.Next() {
		var r report.BotRow
		var bot, op, purpose *string
		var folded int64
		var pos *int64
		var contact *bool
		if err := rows.Scan(&bot, &r.Host, &r.Identity, &op, &purpose, &r.Requests, &r.RobotsFetches, &r.Disallowed,
			&r.DisallowedInGrace, &r.CrawlDelayBreaches, &r.RequestRateBreaches, &r.VisitTimeBreaches,
			&r.Unaudited, &r.IPs, &r.FirstSeen, &r.LastSeen,
			&r.DisallowedUnreachable, &r.AllowedUnavailable, &r.UserTriggered, &r.CrawlDelayUnsupported, &folded, &pos,
			&r.Signed,
			&r.Bytes, &r.Status.S2xx, &r.Status.S3xx, &r.Status.S304, &r.Status.S4xx, &r.Status.S5xx,
			&r.Conduct.ErrorAnswers, &r.Conduct.OtherMethods, &r.Conduct.NoBackoff, &r.Conduct.RepeatFetches,
			&r.Conduct.NotModified, &r.Conduct.RefetchHoursMedian, &contact,
			&r.PrefExposed); err != nil {
			return fmt.Errorf("reading the summary: %w", err)
		}
		r.Conduct.Contact = contact != nil && *contact
		r.Conduct.SetShare()
		if bot != nil {
			r.Bot = *bot
		}
		if op != nil {
			r.Operator = *op
		}
		if purpose != nil {
			r.Purpose = *purpose
		}
		r.FirstSeen, r.LastSeen = r.FirstSeen.UTC(), r.LastSeen.UTC()
		if folded > 0 {
			folds.addFolded(&r, folded)
			continue
		}
		r.Verifiable = j.claims.ranges().Verifiable(r.Bot)
		r.Conduct.PublishesRanges = publishesRanges(j.claims.ranges(), r.Bot, r.Identity)
		r.Judge()
		s.Bots = append(s.Bots, r)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	s.Input.FoldedBotRows = folds.n
	s.Bots = append(s.Bots, folds.rows()...)
	ReferralSummary(s, j.refererSeen, j.referralCounts())
	return nil
}

// verification returns summary.json's "verification" section.
func verification(ranges *verify.Ranges, c *claims, dns DNSOptions, st DNSStats) *report.Verification {
	v := &report.Verification{Sources: []report.RangeSource{}, Identities: c.identityCounts()}
	for _, si := range ranges.Info() {
		if si.Versions == 0 && len(si.Refused) == 0 {
			continue // a source the snapshot has no list of: it verified nothing
		}
		v.Sources = append(v.Sources, report.RangeSource{Name: si.Name, Operator: si.Operator, URL: si.URL,
			Versions: si.Versions, First: si.First.UTC(), Last: si.Last.UTC(), Origin: si.Origin,
			Refused: listNotes(si.Refused), Dropped: listNotes(si.Dropped)})
	}
	if dns.Live || dns.CachePath != "" {
		v.DNS = st
	}
	return v
}

// listNotes converts the notes of refused or trimmed range lists.
func listNotes(ns []verify.ListNote) []report.RangeListNote {
	var out []report.RangeListNote
	for _, n := range ns {
		out = append(out, report.RangeListNote{File: n.File, Created: n.Created.UTC(), Reasons: n.Reasons})
	}
	return out
}
