//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/hostilegen"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
)

// leanOutputs are the outputs a lean audit can have, rendered: summary.json
// and the terminal table (TSV and the table with colours off).
func leanOutputs(t *testing.T, cfg Config, logs []string) (outputs map[string][]byte, lean bool, moved int64) {
	t.Helper()
	res, err := Run(context.Background(), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	outputs = map[string][]byte{}
	var js, table bytes.Buffer
	if err := report.WriteJSON(&js, &res.Summary); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteTable(&table, &res.Summary, report.TableOptions{}); err != nil {
		t.Fatal(err)
	}
	outputs["summary.json"], outputs["table"] = js.Bytes(), table.Bytes()
	for _, b := range res.Summary.Bots {
		moved += b.DisallowedUnreachable + b.AllowedUnavailable
	}
	return outputs, res.lean, moved
}

// TestLeanSameOutputs audits each input with the judge's counts in DuckDB
// (Config.Lean) and with every request stored, and compares the outputs
// byte for byte: the lean tables are a faster road to the same summary, not
// another definition of it. The inputs are the committed sample (its
// robots.txt 503 and 404 outages move verdicts), the realistic month
// (crawlaudit gen --realistic) with the same outages, a hostile log of
// invented bots, long paths and many addresses, and the same inputs with
// the lean counts handed over a few keys at a time, or with the streamed
// measures giving up (the audit then reads the logs again, storing every
// request).
func TestLeanSameOutputs(t *testing.T) {
	dir := t.TempDir()
	realCfg := loggen.RealisticConfig(60_000)
	realCfg.RobotsOutages = loggen.SampleOutages()
	realCfg.AIReferrals = 0.05 // referrals of every kind in summary.json
	realRobots, realLog := writeMonth(t, filepath.Join(dir, "realistic"), realCfg, "combined", false)

	hostileLog := writeLeanHostileLog(t, filepath.Join(dir, "hostile.log"))
	hostileRobots, _ := writeScenario(t)

	sample := Config{Robots: "../testdata/sample/robots", Grace: 24 * time.Hour}
	cases := []struct {
		name     string
		cfg      Config
		logs     []string
		keys     int  // maxLeanKeys; 0: as built
		streamKs int  // maxStreamKeys; 0: as built
		conduct  int  // maxConductRequests; 0: as built
		leanCond int  // maxLeanConductRequests; 0: as built
		lean     bool // the lean pass is expected to finish
		moves    bool // some verdict moved by robots.txt's availability
	}{
		{name: "sample", cfg: sample, logs: []string{"../testdata/sample/access-2026-10.log.gz"}, lean: true, moves: true},
		{name: "sample in small batches", cfg: sample, logs: []string{"../testdata/sample/access-2026-10.log.gz"}, keys: 7, lean: true, moves: true},
		{name: "realistic with outages", cfg: Config{Robots: realRobots}, logs: []string{realLog}, lean: true, moves: true},
		{name: "hostile", cfg: Config{Robots: hostileRobots}, logs: []string{hostileLog}, lean: true},
		{name: "hostile, stream gives up", cfg: Config{Robots: hostileRobots}, logs: []string{hostileLog}, streamKs: 50},
		{name: "sample, stream gives up", cfg: sample, logs: []string{"../testdata/sample/access-2026-10.log.gz"}, streamKs: 3},
		// A lean pass keeps more requests for the conduct than a full one
		// (DuckDB holds no rows then), and gives up past its own bound.
		{name: "realistic, conduct past the full pass's bound", cfg: Config{Robots: realRobots}, logs: []string{realLog}, conduct: 1000, leanCond: 1 << 20, lean: true, moves: true},
		{name: "realistic, conduct past the lean pass's bound", cfg: Config{Robots: realRobots}, logs: []string{realLog}, conduct: 1000, leanCond: 1000, moves: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.keys > 0 {
				defer func(n int) { maxLeanKeys = n }(maxLeanKeys)
				maxLeanKeys = c.keys
			}
			if c.streamKs > 0 {
				defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
				maxStreamKeys = c.streamKs
			}
			if c.conduct > 0 {
				defer func(n, l int) { maxConductRequests, maxLeanConductRequests = n, l }(maxConductRequests, maxLeanConductRequests)
				maxConductRequests, maxLeanConductRequests = c.conduct, c.leanCond
			}
			full, wasLean, moved := leanOutputs(t, c.cfg, c.logs)
			if wasLean {
				t.Fatal("an audit without Config.Lean kept only counts")
			}
			cfg := c.cfg
			cfg.Lean = true
			lean, wasLean, _ := leanOutputs(t, cfg, c.logs)
			if wasLean != c.lean {
				t.Errorf("lean pass finished: %v, want %v", wasLean, c.lean)
			}
			for name, want := range full {
				if got := lean[name]; !bytes.Equal(got, want) {
					t.Errorf("%s differs between the lean and the full audit:\nlean:\n%s\nfull:\n%s", name, got, want)
				}
			}
			if c.moves && moved == 0 {
				t.Error("no verdict moved by robots.txt's availability: the case does not test the lean moves")
			}
		})
	}
}

// TestLeanRefusesRows: a lean result has no requests to list, and says so
// rather than writing empty files.
func TestLeanRefusesRows(t *testing.T) {
	res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots", Lean: true}, []string{"../testdata/sample/access-2026-10.log.gz"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if !res.lean {
		t.Fatal("the sample's audit did not stay lean")
	}
	if err := res.WriteOut(context.Background(), t.TempDir(), BlockPolicy{}); err == nil {
		t.Error("WriteOut of a lean audit: no error")
	}
	// Without Config.BlockList it kept nothing per client address.
	if _, _, err := res.BlockList(context.Background(), BlockPolicy{}); err == nil {
		t.Error("BlockList of a lean audit without Config.BlockList: no error")
	}
}

// TestLeanOnlyFromFiles: a lean pass that gives up reads the logs again,
// which standard input cannot be, so an audit of it stores every request
// from the start, with the same summary.
func TestLeanOnlyFromFiles(t *testing.T) {
	const sample = "../testdata/sample/access-2026-10.log.gz"
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Robots: "../testdata/sample/robots", Lean: true}
	fromFile, wasLean, _ := leanOutputs(t, cfg, []string{sample})
	if !wasLean {
		t.Fatal("the sample's file did not stay lean")
	}
	cfg.Ingest.Stdin = bytes.NewReader(data)
	fromStdin, wasLean, _ := leanOutputs(t, cfg, []string{"-"})
	if wasLean {
		t.Error("an audit of standard input kept only counts: it could not read it again")
	}
	if got, want := fromStdin["table"], fromFile["table"]; !bytes.Equal(got, want) {
		t.Errorf("the table of standard input differs from the file's:\n%s\nwant:\n%s", got, want)
	}
}

// leanBlockPolicies are the block-list policies TestLeanBlockListSame
// compares under (docs/blocklists.md): the default; every kind; the window
// breaches alone over a minimum, so that an address's exact count of
// breaches decides; robots.txt's unreachable verdicts; and verified
// crawlers allowed on the list.
var leanBlockPolicies = []BlockPolicy{
	{},
	{On: BlockKinds},
	{On: []string{"crawl-delay", "request-rate"}, Min: 3},
	{On: []string{"crawl-delay"}, Min: 2},
	{On: []string{"request-rate"}},
	{On: []string{"disallowed", "unreachable"}, Min: 2},
	{On: []string{"unreachable", "visit-time", "in-grace"}},
	{On: BlockKinds, Min: 5, Verified: true},
}

// blockOutputs audits logs under cfg and renders, for each policy of
// leanBlockPolicies, summary.json with its block list and the list's
// entries (addresses, counts, claims, first and last request).
// kinds sums the entries' counts of each kind; held counts the held-back
// crawlers named with the rule they broke most.
func blockOutputs(t *testing.T, cfg Config, logs []string) (outputs map[string][]byte, lean bool, kinds [firewall.NumKinds]int64, held int) {
	t.Helper()
	res, err := Run(context.Background(), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	outputs = map[string][]byte{}
	for i, p := range leanBlockPolicies {
		l, _, err := res.BlockList(context.Background(), p)
		if err != nil {
			t.Fatalf("policy %d: %v", i, err)
		}
		var js bytes.Buffer
		if err := report.WriteJSON(&js, &res.Summary); err != nil {
			t.Fatal(err)
		}
		outputs[fmt.Sprintf("policy %d summary.json", i)] = js.Bytes()
		for _, h := range res.Summary.Blocklist.HeldBackCrawlers {
			if h.Rule != "" {
				held++
			}
		}
		var entries bytes.Buffer
		for _, e := range l.Entries {
			fmt.Fprintf(&entries, "%+v\n", e)
			for k, n := range e.Counts {
				kinds[k] += n
			}
		}
		outputs[fmt.Sprintf("policy %d entries", i)] = entries.Bytes()
	}
	return outputs, res.lean, kinds, held
}

// TestLeanBlockListSame is TestLeanSameOutputs for the block list (audit
// --json): each input audited with the judge's counts (Config.Lean with
// Config.BlockList) and with every request stored gives the same
// summary.json and the same entries under every policy of
// leanBlockPolicies. The inputs are those of TestLeanSameOutputs and the
// scenario of audit_test.go; in the sample and the realistic month MJ12bot
// and DotBot breach Crawl-delay and Request-rate, and the sample's
// robots.txt outages move verdicts to disallowed_unreachable, so each kind
// of the list is counted per address (the test checks that some entry has
// it) and a verified crawler is held back.
func TestLeanBlockListSame(t *testing.T) {
	dir := t.TempDir()
	realCfg := loggen.RealisticConfig(60_000)
	realCfg.RobotsOutages = loggen.SampleOutages()
	realRobots, realLog := writeMonth(t, filepath.Join(dir, "realistic"), realCfg, "combined", false)

	hostileLog := writeLeanHostileLog(t, filepath.Join(dir, "hostile.log"))
	scenarioRobots, scenarioLog := writeScenario(t)

	sample := Config{Robots: "../testdata/sample/robots", Grace: 24 * time.Hour}
	const sampleLog = "../testdata/sample/access-2026-10.log.gz"
	cases := []struct {
		name     string
		cfg      Config
		logs     []string
		keys     int  // maxLeanKeys; 0: as built
		streamKs int  // maxStreamKeys; 0: as built
		blockKs  int  // maxLeanBlockKeys; 0: as built
		dict     int  // maxDictBytes; 0: as built
		lean     bool // the lean pass is expected to finish
		// kinds are the kinds (firewall.Disallowed ...) some entry
		// must count, so that the case tests them.
		kinds []firewall.Kind
		held  bool // some policy holds back a verified crawler that broke a rule
	}{
		{name: "sample", cfg: sample, logs: []string{sampleLog}, lean: true,
			kinds: []firewall.Kind{firewall.Disallowed, firewall.Spoofed, firewall.CrawlDelay, firewall.RequestRate, firewall.Unreachable}},
		{name: "sample in small batches", cfg: sample, logs: []string{sampleLog}, keys: 7, lean: true},
		{name: "realistic with outages", cfg: Config{Robots: realRobots}, logs: []string{realLog}, lean: true,
			kinds: []firewall.Kind{firewall.Disallowed, firewall.CrawlDelay, firewall.RequestRate, firewall.VisitTime}},
		{name: "scenario", cfg: Config{Robots: scenarioRobots}, logs: []string{scenarioLog}, lean: true, held: true},
		{name: "hostile", cfg: Config{Robots: scenarioRobots}, logs: []string{hostileLog}, lean: true},
		{name: "hostile, stream gives up", cfg: Config{Robots: scenarioRobots}, logs: []string{hostileLog}, streamKs: 50},
		{name: "sample, stream gives up", cfg: sample, logs: []string{sampleLog}, streamKs: 3},
		// A full dict writes the addresses into the rows: the lean counts
		// carry them as strings.
		{name: "sample, addresses not in dict", cfg: sample, logs: []string{sampleLog}, dict: 2048, lean: true,
			kinds: []firewall.Kind{firewall.CrawlDelay, firewall.RequestRate, firewall.Unreachable}},
		{name: "sample, too many addresses for the block list's counts", cfg: sample, logs: []string{sampleLog}, dict: 2048, blockKs: 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.keys > 0 {
				defer func(n int) { maxLeanKeys = n }(maxLeanKeys)
				maxLeanKeys = c.keys
			}
			if c.streamKs > 0 {
				defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
				maxStreamKeys = c.streamKs
			}
			if c.blockKs > 0 {
				defer func(n int) { maxLeanBlockKeys = n }(maxLeanBlockKeys)
				maxLeanBlockKeys = c.blockKs
			}
			if c.dict > 0 {
				defer func(n int) { maxDictBytes = n }(maxDictBytes)
				maxDictBytes = c.dict
			}
			full, wasLean, kinds, held := blockOutputs(t, c.cfg, c.logs)
			if wasLean {
				t.Fatal("an audit without Config.Lean kept only counts")
			}
			cfg := c.cfg
			cfg.Lean, cfg.BlockList = true, true
			lean, wasLean, _, _ := blockOutputs(t, cfg, c.logs)
			if wasLean != c.lean {
				t.Errorf("lean pass finished: %v, want %v", wasLean, c.lean)
			}
			for name, want := range full {
				if got := lean[name]; !bytes.Equal(got, want) {
					t.Errorf("%s differs between the lean and the full audit:\nlean:\n%s\nfull:\n%s", name, got, want)
				}
			}
			for _, k := range c.kinds {
				if kinds[k] == 0 {
					t.Errorf("no entry counts %v: the case does not test it", k)
				}
			}
			if c.held && held == 0 {
				t.Error("no verified crawler held back: the case does not test the held-back rules")
			}
		})
	}
}

// writeLeanHostileLog writes the hostile log the lean tests read (20,000
// lines, 3,000 User-Agents, 500 invented bot names, 4,000 addresses) to
// path, and returns path.
func writeLeanHostileLog(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = hostilegen.Write(f, hostilegen.Options{Lines: 20_000, Agents: 3000, BotNames: 500, Addresses: 4000, PathBytes: 200, Seed: 3})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}
