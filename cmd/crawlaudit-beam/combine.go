package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/report"
)

// partElement is what the judging step says of one input (a LOG
// argument) or byte range of one, beside its rows: the element of the side input the summary
// is made with.
type partElement struct {
	// Index is the input's place among the LOG arguments.
	Index int `json:"index"`
	// Part is the place of the byte range among its file's (0 for a
	// whole input).
	Part    int           `json:"part,omitempty"`
	Partial audit.Partial `json:"partial"`
	// MaxTS is the time of its latest bot request (Unix µs); nil when it
	// has none.
	MaxTS *int64 `json:"max_ts,omitempty"`
}

// combined is the summary of every part, and what the user should be told.
type combined struct {
	Summary  report.Summary
	Warnings []string
	// InputErrors are the parts' input errors (unreadable, truncated or
	// damaged files), in input order.
	InputErrors []string
}

// combine makes the summary of an audit from its parts and the bot rows
// measured per key, as Run makes it from the whole: base is the summary
// without logs (PartialAuditor.Base); the counts of the parts add up, the
// period runs from the least to the greatest instant, the time resolution
// is one second when every part's is, the rejected samples are the first
// samplesPerReason of each reason in input order, and the bot rows get
// their operator, purpose and verdict and the order of summary.sql, those
// past audit's limit folded as audit folds them. It
// returns an error wrapping audit.ErrNothingToAudit when the audit, as a
// whole, audits nothing, and a *nothingReadError when it read no line
// because of input errors.
func combine(a *audit.PartialAuditor, base report.Summary, parts []partElement, rows []report.BotRow, samplesPerReason int) (*combined, error) {
	slices.SortFunc(parts, func(x, y partElement) int { return cmp.Or(cmp.Compare(x.Index, y.Index), cmp.Compare(x.Part, y.Part)) })
	c := &combined{Summary: base}
	s := &c.Summary
	in := &s.Input
	if in.RejectedReasons == nil {
		in.RejectedReasons = map[string]int64{}
	}
	identities := map[string]int64{}
	bots := map[string]audit.BotInfo{}
	hosts := map[string]bool{}
	whole := true
	var logFrom, logTo time.Time
	var samples, clientSamples []report.Sample
	refererSeen := false
	referred := map[audit.ReferralCount]int64{} // by operator and host, N zero
	var robotsResponses []audit.RobotsResponse
	var robotsDropped int64
	for _, pe := range parts {
		p := &pe.Partial
		pi := &p.Input
		in.Files += pi.Files
		in.Lines += pi.Lines
		in.Parsed += pi.Parsed
		in.Rejected += pi.Rejected
		in.Unaudited += pi.Unaudited
		in.Directives += pi.Directives
		in.OutsidePeriod += pi.OutsidePeriod
		in.BotRequests += pi.BotRequests
		in.HumanRequests += pi.HumanRequests
		for r, n := range pi.RejectedReasons {
			in.RejectedReasons[r] += n
		}
		for r, n := range pi.InvalidClients {
			if in.InvalidClients == nil {
				in.InvalidClients = map[string]int64{}
			}
			in.InvalidClients[r] += n
		}
		samples = append(samples, pi.Samples...)
		clientSamples = append(clientSamples, pi.InvalidClientSamples...)
		in.Excluded = append(in.Excluded, pi.Excluded...)
		in.Skipped = append(in.Skipped, pi.Skipped...)
		c.InputErrors = append(c.InputErrors, pi.Errors...)
		if pi.From != nil && (in.From == nil || pi.From.Before(*in.From)) {
			in.From = pi.From
		}
		if pi.To != nil && (in.To == nil || pi.To.After(*in.To)) {
			in.To = pi.To
		}
		if p.LogFrom != nil && (logFrom.IsZero() || p.LogFrom.Before(logFrom)) {
			logFrom = *p.LogFrom
		}
		if p.LogTo != nil && (logTo.IsZero() || p.LogTo.After(logTo)) {
			logTo = *p.LogTo
		}
		whole = whole && p.WholeSeconds
		for k, n := range p.Identities {
			identities[k] += n
		}
		for name, b := range p.Bots {
			if _, ok := bots[name]; !ok {
				bots[name] = b
			}
		}
		for _, h := range p.Hosts {
			hosts[h] = true
		}
		refererSeen = refererSeen || p.RefererSeen
		for _, rc := range p.Referred {
			referred[audit.ReferralCount{Operator: rc.Operator, Host: rc.Host}] += rc.N
		}
		robotsResponses = append(robotsResponses, p.RobotsResponses...)
		robotsDropped += p.RobotsDropped
		for _, w := range p.Warnings {
			if !slices.Contains(c.Warnings, w) {
				c.Warnings = append(c.Warnings, w)
			}
		}
	}
	in.Samples = firstSamples(samples, samplesPerReason)
	in.InvalidClientSamples = firstSamples(clientSamples, samplesPerReason)
	if len(c.InputErrors) > 0 {
		// Run joins the input errors into one.
		in.Errors = []string{strings.Join(c.InputErrors, "\n")}
	}
	if whole {
		s.Audit.TimeResolution = "1s"
	}
	if s.Verification != nil {
		v := *s.Verification
		v.Identities = map[string]int64{report.IdentityVerified: 0, report.IdentitySpoofed: 0, report.IdentityUnverified: 0}
		for k, n := range identities {
			v.Identities[k] += n
		}
		s.Verification = &v
	}
	hostList := slices.Sorted(maps.Keys(hosts))
	c.Warnings = append(a.Warnings(hostList), c.Warnings...)
	// The changes of robots.txt the logs show and the history lacks, from
	// the /robots.txt answers of every part, as Run finds them.
	var evidenceWarnings []string
	s.RobotsEvidence, evidenceWarnings = a.RobotsEvidence(robotsResponses, robotsDropped)
	c.Warnings = append(c.Warnings, evidenceWarnings...)

	s.Bots = make([]report.BotRow, 0, len(rows))
	for _, r := range rows {
		b, ok := bots[r.Bot]
		if !ok {
			return nil, fmt.Errorf("bot %q has a row but no part knows it", r.Bot)
		}
		// A spoofed row's requests were not made by the operator, whose
		// ranges or reverse DNS say otherwise.
		if r.Identity != report.IdentitySpoofed {
			r.Operator = b.Operator
			r.Conduct.PublishesRanges = b.PublishesRanges
		}
		r.Purpose = b.Purpose
		r.Verifiable = b.Verifiable
		r.Judge()
		s.Bots = append(s.Bots, r)
	}
	sortBotRows(s.Bots)
	s.Bots, in.FoldedBotRows = audit.FoldBotRows(s.Bots)
	var counts []audit.ReferralCount
	for k, n := range referred {
		counts = append(counts, audit.ReferralCount{Operator: k.Operator, Host: k.Host, N: n})
	}
	audit.ReferralSummary(s, refererSeen, counts)
	if p := a.Predating(s.Bots); p != nil && s.Verification != nil {
		s.Verification.Predating = p
		c.Warnings = append(c.Warnings, p.Sentence())
	}
	if in.Lines == 0 && len(c.InputErrors) > 0 {
		// Nothing read: the reason is the input error, as audit says.
		return nil, &nothingReadError{strings.Join(c.InputErrors, "\n")}
	}
	if err := a.CheckAudited(in, s.Robots, logFrom, logTo, hostList); err != nil {
		return nil, err
	}
	return c, nil
}

// nothingReadError is the input error of an audit that read no line.
type nothingReadError struct{ msg string }

func (e *nothingReadError) Error() string { return e.msg }

// firstSamples returns the first max samples of each reason of samples,
// which are in input order, ordered by reason (and, within a reason, in
// input order), as ingest orders them; nil when there are none.
func firstSamples(samples []report.Sample, max int) []report.Sample {
	if max <= 0 {
		max = ingest.DefaultSamplesPerReason
	}
	var out []report.Sample
	count := map[string]int{}
	for _, s := range samples {
		if count[s.Reason] < max {
			count[s.Reason]++
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b report.Sample) int { return cmp.Compare(a.Reason, b.Reason) })
	return out
}
