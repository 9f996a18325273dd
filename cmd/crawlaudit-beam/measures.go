package main

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/report"
)

// botKey is what a summary row is per, as in summary.json: a bot, a host
// and an identity (0 unverified, 1 verified, 2 spoofed, as
// audit.PartialSchema's identity).
type botKey struct {
	Bot      string `json:"bot"`
	Host     string `json:"host"`
	Identity uint8  `json:"identity"`
}

// identityNames are the names of the identity codes.
var identityNames = []string{report.IdentityUnverified, report.IdentityVerified, report.IdentitySpoofed}

// identityName returns the name of an identity code.
func identityName(code uint8) (string, error) {
	if int(code) >= len(identityNames) {
		return "", fmt.Errorf("unknown identity code %d", code)
	}
	return identityNames[code], nil
}

// keyRows are the judged requests of one key, as columns: what
// measureKey needs of each, and no more. A crawl delay, request rate or
// client address that was NULL has its has* flag false.
type keyRows struct {
	ts []int64 // Unix µs
	// order and line put requests at the same instant in the order the
	// audit takes them (queries/measures.sql orders by ts, file_id,
	// line): order is the file's place in the input.
	order, line []int64
	verdict     []string
	robotsFetch []bool
	visitBreach []bool
	crawlDelay  []float64 // seconds
	hasDelay    []bool
	// delayIgnored: the bot's operator says it ignores that Crawl-delay.
	delayIgnored []bool
	rateN        []int32 // Request-rate n/t: n ...
	rateS        []int32 // ... and t in seconds
	hasRate      []bool
	clientIP     []string
	hasIP        []bool
	// operator and userTriggered are the bot's, as the audit's table
	// "bots" holds them (for the availability of robots.txt).
	operator      []string
	userTriggered []bool
	// userAgent and rule (the rule that decided the verdict) are for the
	// reactions to robots.txt changes; NULL where has* is false.
	userAgent []string
	hasUA     []bool
	rule      []string
	hasRule   []bool
	// For the bytes, the status mix and the conduct: the status (-1 when
	// not logged), the response bytes (0 when not logged), whether the
	// method is other than GET and HEAD, the target (measure.URLHash) and
	// the Retry-After wait in seconds (-1 when none).
	status      []int32
	bytes       []int64
	otherMethod []bool
	url         []uint64
	waitS       []int32
	// prefExposed: the request is pref_exposed (audit.PartialSchema).
	prefExposed []bool
}

// len returns the number of rows.
func (k *keyRows) len() int { return len(k.ts) }

// check returns an error when the columns differ in length (a corrupt
// element).
func (k *keyRows) check() error {
	n := len(k.ts)
	for _, l := range []int{len(k.order), len(k.line), len(k.verdict), len(k.robotsFetch), len(k.visitBreach),
		len(k.crawlDelay), len(k.hasDelay), len(k.delayIgnored), len(k.rateN), len(k.rateS), len(k.hasRate), len(k.clientIP), len(k.hasIP),
		len(k.operator), len(k.userTriggered), len(k.userAgent), len(k.hasUA), len(k.rule), len(k.hasRule),
		len(k.status), len(k.bytes), len(k.otherMethod), len(k.url), len(k.waitS), len(k.prefExposed)} {
		if l != n {
			return fmt.Errorf("columns of %d and %d rows", n, l)
		}
	}
	return nil
}

// keyWindows returns the windows of k's requests (measure.Windows), each
// request's limit being its own: the index of its row in the limits
// returned.
func keyWindows(k *keyRows) (*measure.Windows, []measure.Limit) {
	w := &measure.Windows{}
	limits := make([]measure.Limit, k.len())
	for i := range k.len() {
		limits[i] = measure.Limit{CrawlDelay: k.crawlDelay[i], HasDelay: k.hasDelay[i], DelayIgnored: k.delayIgnored[i],
			RateN: k.rateN[i], RateS: k.rateS[i], HasRate: k.hasRate[i]}
		w.Add(measure.Request{US: k.ts[i], File: int32(k.order[i]), Line: k.line[i], Limit: int32(i)})
	}
	return w, limits
}

// verdictCounts maps a verdict of audit.PartialSchema to the field of
// report.BotRow that counts it: the int64 field whose JSON name is the
// verdict (disallowed, disallowed_in_grace, unaudited, and whatever
// verdict gets a column of its own name, as robots.txt availability's
// user_triggered, disallowed_unreachable and allowed_unavailable).
// Verdicts without a field (allowed) are counted nowhere but in requests,
// as summary.sql does.
var verdictCounts = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeOf(report.BotRow{})
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type.Kind() == reflect.Int64 && name != "" && name != "-" {
			m[name] = i
		}
	}
	// These int64 fields are measured, not verdicts.
	for _, n := range []string{"requests", "robots_fetches", "crawl_delay_breaches", "request_rate_breaches", "visit_time_breaches", "ips", "crawl_delay_unsupported", "pref_exposed"} {
		delete(m, n)
	}
	return m
}()

// measureKey returns the summary row of one key from all its requests,
// with the definitions of queries/summary.sql: requests, robots_fetches,
// the verdict counts, visit_time_breaches, crawl_delay_breaches and
// request_rate_breaches (measure.Windows), ips (distinct client
// addresses), first_seen and last_seen. Operator, purpose and the verdict
// of the row are left to the caller, which knows the bots. k must hold at
// least one row.
func measureKey(key botKey, k *keyRows) (report.BotRow, error) {
	id, err := identityName(key.Identity)
	if err != nil {
		return report.BotRow{}, err
	}
	if err := k.check(); err != nil {
		return report.BotRow{}, fmt.Errorf("%s on %q: %w", key.Bot, key.Host, err)
	}
	if k.len() == 0 {
		return report.BotRow{}, fmt.Errorf("%s on %q: no request", key.Bot, key.Host)
	}
	r := report.BotRow{Bot: key.Bot, Host: key.Host, Identity: id, Requests: int64(k.len())}
	row := reflect.ValueOf(&r).Elem()
	ips := make(map[string]struct{})
	first, last := k.ts[0], k.ts[0]
	for i := range k.len() {
		if k.robotsFetch[i] {
			r.RobotsFetches++
		}
		if k.visitBreach[i] {
			r.VisitTimeBreaches++
		}
		if k.prefExposed[i] {
			r.PrefExposed++
		}
		if f, ok := verdictCounts[k.verdict[i]]; ok {
			row.Field(f).SetInt(row.Field(f).Int() + 1)
		}
		if k.hasIP[i] {
			ips[k.clientIP[i]] = struct{}{}
		}
		first, last = min(first, k.ts[i]), max(last, k.ts[i])
	}
	r.IPs = int64(len(ips))
	r.FirstSeen, r.LastSeen = time.UnixMicro(first).UTC(), time.UnixMicro(last).UTC()
	keyConduct(&r, k)
	w, limits := keyWindows(k)
	b, _ := w.Breaches(limits, key.Identity == 2)
	r.CrawlDelayBreaches, r.CrawlDelayUnsupported, r.RequestRateBreaches = b.CrawlDelay, b.CrawlDelayUnsupported, b.RequestRate
	return r, nil
}

// sortBotRows puts rows in the order of queries/summary.sql: worst
// offenders first (disallowed with disallowed_unreachable, then in grace,
// then breaches of the three limits together, then requests, each
// descending), then by bot, host and identity code.
func sortBotRows(rows []report.BotRow) {
	code := func(id string) int { return slices.Index(identityNames, id) }
	slices.SortStableFunc(rows, func(a, b report.BotRow) int {
		return cmp.Or(
			cmp.Compare(b.Disallowed+b.DisallowedUnreachable, a.Disallowed+a.DisallowedUnreachable),
			cmp.Compare(b.DisallowedInGrace, a.DisallowedInGrace),
			cmp.Compare(b.CrawlDelayBreaches+b.RequestRateBreaches+b.VisitTimeBreaches, a.CrawlDelayBreaches+a.RequestRateBreaches+a.VisitTimeBreaches),
			cmp.Compare(b.Requests, a.Requests),
			cmp.Compare(a.Bot, b.Bot),
			cmp.Compare(a.Host, b.Host),
			cmp.Compare(code(a.Identity), code(b.Identity)),
		)
	})
}

// keyConduct sets the bytes, the status mix and the conduct of r from its
// key's requests, as audit's judge and queries/summary_counts.sql do: the
// classes part 200-599, 3xx without 304; error answers are 5xx and 429.
func keyConduct(r *report.BotRow, k *keyRows) {
	var c measure.Conduct
	contact := map[string]bool{}
	for i := range k.len() {
		r.Bytes += k.bytes[i]
		switch st := k.status[i]; {
		case st == 304:
			r.Status.S304++
		case st >= 200 && st <= 299:
			r.Status.S2xx++
		case st >= 300 && st <= 399:
			r.Status.S3xx++
		case st >= 400 && st <= 499:
			r.Status.S4xx++
		case st >= 500 && st <= 599:
			r.Status.S5xx++
		}
		if measure.IsErrorAnswer(k.status[i]) {
			r.Conduct.ErrorAnswers++
		}
		if k.otherMethod[i] {
			r.Conduct.OtherMethods++
		}
		ua := ""
		if k.hasUA[i] {
			ua = k.userAgent[i]
		}
		has, ok := contact[ua]
		if !ok {
			has = measure.HasContact(ua)
			contact[ua] = has
		}
		r.Conduct.Contact = r.Conduct.Contact || has
		st := int16(-1)
		if v := k.status[i]; v >= 0 && v <= 999 {
			st = int16(v)
		}
		c.Add(measure.ConductRequest{US: k.ts[i], URL: k.url[i], Status: st, WaitS: k.waitS[i]})
	}
	res := c.Finish()
	r.Conduct.NoBackoff, r.Conduct.RepeatFetches, r.Conduct.NotModified = res.NoBackoff, res.RepeatFetches, res.NotModified
	if res.HasRefetch {
		h := measure.Hours(res.RefetchMedianUS)
		r.Conduct.RefetchHoursMedian = &h
	}
	r.Conduct.SetShare()
}
