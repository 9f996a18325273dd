//go:build duckdb_arrow

package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
)

// genConfig is a generated month, smaller than the demo so tests stay fast.
func genConfig() loggen.Config {
	cfg := loggen.SampleConfig()
	cfg.Lines = 20000
	cfg.Seed = 7
	return cfg
}

// writeGenerated writes the generated month in format (gzip when gz) and
// the robots.txt history of its host, and returns their paths.
func writeGenerated(t *testing.T, dir, format string, gz bool) (robotsDir, log string) {
	t.Helper()
	return writeMonth(t, dir, genConfig(), format, gz)
}

// writeMonth writes the month of cfg in format (gzip when gz) in dir, with
// the robots.txt history of each of its hosts, and returns the history's
// directory and the log.
func writeMonth(t *testing.T, dir string, cfg loggen.Config, format string, gz bool) (robotsDir, log string) {
	t.Helper()
	robotsDir = filepath.Join(dir, "robots")
	hosts := cfg.Hosts
	if len(hosts) == 0 {
		hosts = []string{loggen.DefaultHost}
	}
	for _, host := range hosts {
		if err := os.MkdirAll(filepath.Join(robotsDir, host), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, v := range loggen.Robots(host) {
			if err := os.WriteFile(filepath.Join(robotsDir, host, v.FileName()), []byte(v.Text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	log = filepath.Join(dir, "access."+format)
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w loggen.RequestWriter
	if gz {
		w, err = loggen.NewGzipWriter(f, format)
	} else {
		w, err = loggen.NewWriter(f, format)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := loggen.Generate(cfg, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return robotsDir, log
}

func auditGenerated(t *testing.T, format string, gz bool) report.Summary {
	t.Helper()
	robotsDir, log := writeGenerated(t, t.TempDir(), format, gz)
	res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, []string{log})
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	defer res.Close()
	return res.Summary
}

// TestAuditSameAcrossFormats: the same requests written as combined, JSON
// lines, W3C and gzip give identical per-bot results and accounting.
func TestAuditSameAcrossFormats(t *testing.T) {
	base := auditGenerated(t, "combined", false)
	if len(base.Bots) < 15 {
		t.Fatalf("only %d bots in the generated month", len(base.Bots))
	}
	for _, c := range []struct {
		format string
		gz     bool
	}{{"jsonl", false}, {"w3c", false}, {"combined", true}, {"jsonl", true}} {
		s := auditGenerated(t, c.format, c.gz)
		if !reflect.DeepEqual(s.Bots, base.Bots) {
			for i := range s.Bots {
				if i < len(base.Bots) && !reflect.DeepEqual(s.Bots[i], base.Bots[i]) {
					t.Errorf("%s gz=%v: bot row %d = %+v\nwant %+v", c.format, c.gz, i, s.Bots[i], base.Bots[i])
					break
				}
			}
			t.Errorf("%s gz=%v: %d bot rows differ from combined's %d", c.format, c.gz, len(s.Bots), len(base.Bots))
		}
		a, b := s.Input, base.Input
		if a.Parsed != b.Parsed || a.Rejected != b.Rejected || a.BotRequests != b.BotRequests ||
			a.HumanRequests != b.HumanRequests || a.Unaudited != b.Unaudited || !a.From.Equal(*b.From) || !a.To.Equal(*b.To) {
			t.Errorf("%s gz=%v: input %+v\nwant %+v", c.format, c.gz, a, b)
		}
	}
}

// TestAuditAgainstGeneratorModel checks the audit of a generated month
// against what the generator itself says: the bot behind each request (its
// intent, not a parse of the User-Agent), and the verdict of its own small
// robots.txt matcher (independent of package robots) under the version in
// effect and the 24 h grace rule, and robots.txt's availability worked out
// from the month's own /robots.txt responses (genModel; the month has the
// sample's outages).
func TestAuditAgainstGeneratorModel(t *testing.T) {
	cfg := genConfig()
	if len(cfg.RobotsOutages) == 0 {
		t.Fatal("the generated month has no robots.txt outages; the test needs them")
	}
	m := genModel(t, cfg)
	var dis, gr, unav int64
	for _, w := range m.rows {
		dis, gr, unav = dis+w.disallowed, gr+w.grace, unav+w.unavailable
	}
	unreachable := slices.ContainsFunc(m.periods, func(p *modelPeriod) bool { return p.kind == "unreachable" })
	if dis == 0 || gr == 0 || unav == 0 || !unreachable {
		t.Fatalf("the generated month has %d disallowed, %d in-grace and %d unavailable requests, unreachable periods: %v; the test needs all",
			dis, gr, unav, unreachable)
	}
	s := auditGenerated(t, "combined", false)
	got := map[string]modelRow{}
	// The generator's genuine crawlers come from addresses inside their
	// operators' lists of October 2026, its impostors from documentation
	// addresses; crawlers whose operators publish no list are unverified.
	listed := map[string]bool{"Googlebot": true, "Googlebot-Image": true, "bingbot": true, "Applebot": true, "AhrefsBot": true,
		"Amazonbot": true, "GPTBot": true, "ClaudeBot": true, "CCBot": true, "PerplexityBot": true}
	for _, b := range s.Bots {
		key := b.Bot + "/genuine"
		if b.Identity == report.IdentitySpoofed {
			key = b.Bot + "/spoofed"
		} else if want := map[bool]string{true: report.IdentityVerified, false: report.IdentityUnverified}[listed[b.Bot]]; b.Identity != want {
			t.Errorf("%s: identity %s, want %s", b.Bot, b.Identity, want)
		}
		if _, dup := got[key]; dup {
			t.Errorf("%s: two rows of one identity", key)
		}
		got[key] = modelRow{b.Requests, b.Disallowed, b.DisallowedInGrace, b.DisallowedUnreachable, b.AllowedUnavailable}
	}
	for bot, w := range m.rows {
		if g := got[bot]; g != *w {
			t.Errorf("%s: audit %+v, generator model %+v", bot, g, *w)
		}
	}
	if len(got) != len(m.rows) {
		t.Errorf("audit names %d bots, the generator %d: %v vs %v", len(got), len(m.rows), keys(got), keys(m.rows))
	}
	checkPeriods(t, s.RobotsStatus, m.periods, "")
}

// modelRow is a bot row's counts.
type modelRow struct{ requests, disallowed, grace, unreachable, unavailable int64 }

// modelPeriod is a robots.txt availability period (RFC 9309 §2.3.1.3-4)
// as genModel works it out.
type modelPeriod struct {
	host, operator, kind string
	from, to             int64 // Unix seconds; to 0: past the log's end
	status               int
	bot                  string
	line                 int64
	requests, affected   int64
}

// model is what an audit of a generated month must find.
type model struct {
	rs      []loggen.Request
	rows    map[string]*modelRow // by bot and "/genuine" or "/spoofed"
	periods []*modelPeriod
	// of each request, the period its time falls in (nil: none)
	in []*modelPeriod
}

// obeys reports whether the generator's behaviour obeys Disallow.
func obeys(b loggen.Behavior) bool {
	return b == loggen.Polite || b == loggen.BreachesCrawlDelay || b == loggen.BreachesRequestRate || b == loggen.BreachesVisitTime
}

// modelAllowed is the generator's reference matcher (independent of
// package robots) with the one operator rule the generated traffic meets:
// Applebot, which no version names, is judged by the Googlebot group
// (bots/operators.json, from Apple's documentation).
func modelAllowed(v *loggen.RobotsVersion, r *loggen.Request) bool {
	ua := r.UserAgent
	if r.Bot == "Applebot" {
		ua = "Googlebot"
	}
	return v.Allowed(ua, string(r.Target))
}

// genModel generates cfg (one host, the hand-written history) and works
// out, in Go and from the requests alone, what an audit with a 24 h grace
// must count: per bot row its requests, disallowed and in-grace ones by
// the version in effect, and robots.txt's availability periods per host
// and operator from the log's own /robots.txt responses (RFC 9309
// §2.3.1): after a 5xx or 429 unreachable until the operator's
// next response of another kind (at most 30 days), after another 4xx
// unavailable likewise; a period holds from its response's second to the
// next one's. An operator's requests other than /robots.txt in an
// unreachable period are disallowed_unreachable; those the version
// disallows in an unavailable one allowed_unavailable, not disallowed.
// Impostors (Operator "") neither open a period nor are judged by one.
func genModel(t *testing.T, cfg loggen.Config) *model {
	t.Helper()
	m := &model{rows: map[string]*modelRow{}}
	err := loggen.Generate(cfg, func(r *loggen.Request) error {
		c := *r
		c.Target = slices.Clone(r.Target)
		c.Referer = nil
		m.rs = append(m.rs, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	versions := loggen.Robots(loggen.DefaultHost)
	at := func(sec int64) int {
		v := -1
		for i := range versions {
			if versions[i].At.Unix() <= sec {
				v = i
			}
		}
		return v
	}
	// The periods, from the /robots.txt responses in log order.
	type hostOp struct{ host, op string }
	state := map[hostOp]string{}
	open := map[hostOp]*modelPeriod{}
	var last int64
	for i := range m.rs {
		r := &m.rs[i]
		last = max(last, r.Unix)
		if r.Operator == "" || string(r.Target) != "/robots.txt" {
			continue
		}
		var kind string
		switch {
		case r.Status >= 200 && r.Status <= 299:
			kind = "ok"
		case r.Status >= 500 && r.Status <= 599 || r.Status == 429:
			kind = "unreachable"
		case r.Status >= 400 && r.Status <= 499:
			kind = "unavailable"
		default:
			continue // 1xx, 3xx: nothing known
		}
		k := hostOp{r.Host, r.Operator}
		if state[k] == kind {
			continue
		}
		state[k] = kind
		if p := open[k]; p != nil {
			p.to = r.Unix
			delete(open, k)
		}
		if kind != "ok" {
			p := &modelPeriod{host: r.Host, operator: r.Operator, kind: kind, from: r.Unix, status: r.Status, bot: r.Bot, line: int64(i + 1)}
			m.periods = append(m.periods, p)
			open[k] = p
		}
	}
	const month = 30 * 24 * 3600
	for _, p := range m.periods {
		if p.kind == "unreachable" && (p.to == 0 || p.to > p.from+month) && p.from+month <= last {
			p.to = p.from + month
		}
	}
	// Each request's verdict.
	m.in = make([]*modelPeriod, len(m.rs))
	for i := range m.rs {
		r := &m.rs[i]
		if r.Bot == "" {
			continue
		}
		key := r.Bot + "/genuine"
		if r.Behavior == loggen.Spoofed {
			key = r.Bot + "/spoofed"
		}
		c := m.rows[key]
		if c == nil {
			c = &modelRow{}
			m.rows[key] = c
		}
		c.requests++
		var p *modelPeriod
		if r.Operator != "" && string(r.Target) != "/robots.txt" {
			for _, q := range m.periods {
				if q.host == r.Host && q.operator == r.Operator && q.from <= r.Unix && (q.to == 0 || r.Unix < q.to) {
					p = q
				}
			}
		}
		m.in[i] = p
		if p != nil {
			p.requests++
		}
		if p != nil && p.kind == "unreachable" {
			c.unreachable++
			p.affected++
			continue
		}
		v := at(r.Unix)
		if v < 0 || modelAllowed(&versions[v], r) {
			continue
		}
		switch old := at(r.Unix - 24*3600); {
		case p != nil: // unavailable: the crawler may access anything
			c.unavailable++
			p.affected++
		case old >= 0 && old != v && modelAllowed(&versions[old], r):
			c.grace++
		default:
			c.disallowed++
		}
	}
	return m
}

// checkPeriods compares summary.json's robots_status with the model's
// periods; file is the log's path the periods name ("": not checked).
func checkPeriods(t *testing.T, got []report.RobotsPeriod, want []*modelPeriod, file string) {
	t.Helper()
	str := func(host, op, kind string, from int64, to *time.Time, status int, bot string, line, requests, affected int64) string {
		end := "-"
		if to != nil {
			end = to.UTC().Format(time.RFC3339)
		}
		return fmt.Sprintf("%s %s %s %s..%s %d %s line %d: %d requests, %d affected", host, op, kind,
			time.Unix(from, 0).UTC().Format(time.RFC3339), end, status, bot, line, requests, affected)
	}
	var g, w []string
	for _, p := range got {
		g = append(g, str(p.Host, p.Operator, p.Kind, p.From.Unix(), p.To, p.Status, p.Bot, p.Line, p.Requests, p.Affected))
		if file != "" && p.File != file {
			t.Errorf("period of %s names the file %q, want %q", p.Operator, p.File, file)
		}
	}
	for _, p := range want {
		var to *time.Time
		if p.to != 0 {
			u := time.Unix(p.to, 0)
			to = &u
		}
		w = append(w, str(p.host, p.operator, p.kind, p.from, to, p.status, p.bot, p.line, p.requests, p.affected))
	}
	// robots_status is sorted by host, operator and start; so is the model.
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("robots_status:\n got %s\nwant %s", strings.Join(g, "\n     "), strings.Join(w, "\n     "))
	}
}

// TestAuditSampleAvailability: the demo month's robots.txt outages
// (loggen.SampleOutages: 503 for five hours, 404 for a day) as an audit of
// testdata/sample sees them, against what the generator planned and its
// requests show, worked out without the audit's SQL:
//   - robots_status lists exactly the periods of genModel, each opened by
//     a response in an outage, of the outage's kind and status, and closed
//     at or after its end;
//   - crawlers that obey robots.txt have no disallowed request, nor any
//     disallowed_unreachable (they fall silent while it is unreachable);
//   - Bytespider's disallowed_unreachable is its requests, all disallowed
//     by its Disallow: /, made while robots.txt was unreachable for
//     ByteDance, within the 503 outage;
//   - each row's allowed_unavailable is what the obeying crawlers requested
//     on a copy that a 404 made "allow all" and the version disallows.
func TestAuditSampleAvailability(t *testing.T) {
	const log = "../testdata/sample/access-2026-10.log.gz"
	cfg := loggen.SampleConfig()
	m := genModel(t, cfg)
	// The committed sample is what the generator writes (as
	// internal/loggen's TestSampleUpToDate checks).
	if got, want := gunzipFile(t, log), renderCombined(t, cfg); !bytes.Equal(got, want) {
		t.Fatalf("%s is not what loggen.SampleConfig generates: regenerate it (testdata/sample/README.md)", log)
	}
	res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots", Grace: 24 * time.Hour}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	s := res.Summary

	// The periods: the model's, and each where the generator put it.
	checkPeriods(t, s.RobotsStatus, m.periods, log)
	outages := cfg.RobotsOutages
	kinds := map[string]int{}
	for _, p := range m.periods {
		o := slices.IndexFunc(outages, func(o loggen.Outage) bool { return o.Start.Unix() <= p.from && p.from < o.End.Unix() })
		if o < 0 {
			t.Errorf("period of %s from %s opened outside the outages", p.operator, time.Unix(p.from, 0).UTC())
			continue
		}
		want := map[bool]string{true: "unreachable", false: "unavailable"}[outages[o].Unreachable()]
		if p.kind != want || p.status != outages[o].Status || p.to != 0 && p.to < outages[o].End.Unix() {
			t.Errorf("period %+v in outage %s", *p, outages[o])
		}
		kinds[p.kind]++
	}
	if kinds["unreachable"] < 5 || kinds["unavailable"] < 10 {
		t.Errorf("periods of each kind: %v; the sample's outages should open several", kinds)
	}

	rows := map[string]report.BotRow{}
	for _, b := range s.Bots {
		key := b.Bot + "/genuine"
		if b.Identity == report.IdentitySpoofed {
			key = b.Bot + "/spoofed"
		}
		rows[key] = b
		w := m.rows[key]
		if w == nil {
			t.Errorf("%s: no such bot in the generated month", key)
			continue
		}
		if g := (modelRow{b.Requests, b.Disallowed, b.DisallowedInGrace, b.DisallowedUnreachable, b.AllowedUnavailable}); g != *w {
			t.Errorf("%s: audit %+v, model %+v", key, g, *w)
		}
	}

	// What the generator meant, request by request.
	windows := func(sec int64) bool {
		return slices.ContainsFunc(outages, func(o loggen.Outage) bool { return o.Unreachable() && o.Start.Unix() <= sec && sec < o.End.Unix() })
	}
	versions := loggen.Robots(loggen.DefaultHost)
	type actorKey struct{ host, actor string }
	lastFetch := map[actorKey]int{} // status of the actor's own last /robots.txt fetch
	obeying := map[string]bool{}
	onMissing := map[string]int64{} // version-disallowed requests on a 4xx copy, by row
	var byteUnreachable, byteInWindows int64
	for i := range m.rs {
		r := &m.rs[i]
		if r.Bot == "" || r.Behavior == loggen.Spoofed {
			continue
		}
		key := r.Bot + "/genuine"
		if obeys(r.Behavior) {
			obeying[key] = true
		}
		k := actorKey{r.Host, r.Actor}
		if string(r.Target) == "/robots.txt" {
			lastFetch[k] = r.Status
			continue
		}
		vi := -1 // the version in effect
		for j := range versions {
			if versions[j].At.Unix() <= r.Unix {
				vi = j
			}
		}
		disallowed := vi >= 0 && !modelAllowed(&versions[vi], r)
		if r.Bot == "Bytespider" {
			if p := m.in[i]; p != nil && p.kind == "unreachable" {
				byteUnreachable++
			}
			if disallowed && windows(r.Unix) {
				byteInWindows++
			}
		}
		if st := lastFetch[k]; obeys(r.Behavior) && st >= 400 && st != 429 && st < 500 && disallowed {
			onMissing[key]++
		}
	}
	for key := range obeying {
		if b := rows[key]; b.Disallowed != 0 || b.DisallowedUnreachable != 0 {
			t.Errorf("%s obeys robots.txt, but has %d disallowed and %d disallowed_unreachable requests", key, b.Disallowed, b.DisallowedUnreachable)
		}
	}
	if b := rows["Bytespider/genuine"]; b.DisallowedUnreachable == 0 || b.DisallowedUnreachable != byteUnreachable || b.DisallowedUnreachable != byteInWindows {
		t.Errorf("Bytespider: %d disallowed_unreachable; it made %d requests while unreachable for ByteDance, %d disallowed ones in the 503 outage",
			b.DisallowedUnreachable, byteUnreachable, byteInWindows)
	}
	var total int64
	for key, b := range rows {
		if b.AllowedUnavailable != onMissing[key] {
			t.Errorf("%s: %d allowed_unavailable, but %d version-disallowed requests made on a 4xx copy", key, b.AllowedUnavailable, onMissing[key])
		}
		total += b.AllowedUnavailable
	}
	if total == 0 || onMissing["GPTBot/genuine"] == 0 {
		t.Errorf("allowed_unavailable: %v; GPTBot, disallowed everything, should come back on its 404 copy", onMissing)
	}
	t.Logf("periods %v; Bytespider unreachable %d; allowed_unavailable %v", kinds, byteUnreachable, onMissing)
}

// gunzipFile returns the decompressed content of a gzip file.
func gunzipFile(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// renderCombined returns the combined log of cfg.
func renderCombined(t *testing.T, cfg loggen.Config) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := loggen.NewWriter(&buf, "combined")
	if err != nil {
		t.Fatal(err)
	}
	if err := loggen.Generate(cfg, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
