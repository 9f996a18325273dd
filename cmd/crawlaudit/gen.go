package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/spf13/cobra"
)

// genOptions are the flags of "crawlaudit gen".
type genOptions struct {
	lines     int
	from, to  string
	seed      int64
	format    string
	gzip      bool
	robotsDir string
	out       string
	hosts     []string
	tz        string
	// Knobs of realistic traffic (loggen.Config), 0 for the default.
	paths       int
	agents      int
	botShare    float64
	robotsRules int
	realistic   bool
	aiReferrals float64
	outages     []string               // --robots-outage START/END=STATUS
	signed      float64                // --signed: share of the crawlers' requests signed
	keysOut     string                 // --keys-out DIR: the test signers' keys
	changed     func(name string) bool // whether a flag was given
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		o := &genOptions{}
		cmd := &cobra.Command{
			Use:   "gen -o FILE",
			Short: "Generate a month-like access log and its robots.txt history (developer tool)",
			Long: `Developer tool: generates a synthetic, month-like web access log for benchmarks,
tests and demos, deterministically from --seed (the same flags give the same bytes).

The traffic mixes people with browsers (desktop and mobile, IPv4 and IPv6, more by
day than by night), crawlers with their real User-Agent strings and addresses
(Googlebot, bingbot, GPTBot, ClaudeBot, CCBot, Bytespider, ...) and scripts (curl,
python-requests, Go-http-client, Wget). The crawlers misbehave in known ways
against the generated robots.txt history: Bytespider ignores Disallow, MJ12bot
breaches Crawl-delay, DotBot Request-rate, PetalBot Visit-time, a "Googlebot"
comes from outside Google's ranges, GPTBot is disallowed from the second version
on, and browsers request disallowed paths. Offsets are those of --tz, so a log
over 2026-10-25 shows the change from +0200 to +0100.

The default traffic is cheap to audit: about 11,700 distinct paths per million
lines and 46 User-Agents. --paths, --agents, --bot-share and --robots-rules make it
look like a real site's: --paths N gives about N distinct targets (pages,
products, images, searches; each section's entries requested with a Zipf law),
--agents N about N distinct User-Agents (the 31 of the crawlers and scripts, the
rest browsers), --bot-share F the fraction of requests by crawlers and scripts,
--robots-rules N the Allow and Disallow rules of the last robots.txt version
(60 hand-written; more are added as Disallow rules to every version).
--robots-outage START/END=STATUS (repeatable) makes /robots.txt answer STATUS
from START to END (RFC 3339, END exclusive) on every host: 5xx or 429 make it
unreachable (crawlers that obey robots.txt stop all but hourly retries), other
4xx unavailable (they may crawl anything until they fetch it again).
--ai-referrals F makes that fraction of the visits land from an AI assistant's
answer (a Referer of chatgpt.com, perplexity.ai, claude.ai, Copilot or Gemini,
or ChatGPT's utm_source=chatgpt.com), for the audit's referrals.
--realistic sets them to a real site's month (the speed benchmarks' input): 104 distinct paths per
1,000 lines, 271 User-Agents, 30% crawlers, the 60-rule robots.txt; a knob given
with it overrides it.

--from and --to take RFC 3339 times or dates (UTC); --to is exclusive. With
--robots-dir, the robots.txt history is written as DIR/HOST/<RFC 3339>.txt, the
layout "crawlaudit audit --robots DIR" reads. -o - writes to stdout.`,
			Example: `  # the demo data in testdata/sample
  crawlaudit gen --lines 50000 --seed 1 --from 2026-10-01 --to 2026-11-01 \
      --robots-outage 2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503 \
      --robots-outage 2026-10-27T06:00:00Z/2026-10-28T06:00:00Z=404 --gzip \
      --robots-dir testdata/sample/robots -o testdata/sample/access-2026-10.log.gz

  # a 1M-line (~250 MB) month for benchmarks
  crawlaudit gen --lines 1000000 --robots-dir /tmp/bench/robots -o /tmp/bench/access.log

  # the realistic month of the benchmark: ~104,000 paths, 271 User-Agents, 30% crawlers
  crawlaudit gen --realistic --lines 1000000 --robots-dir /tmp/real/robots -o /tmp/real/access.log`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				o.changed = cmd.Flags().Changed
				return runGen(e, o)
			},
		}
		f := cmd.Flags()
		f.IntVar(&o.lines, "lines", 50000, "number of log lines (requests)")
		f.StringVar(&o.from, "from", "2026-10-01", "first instant of the period (RFC 3339 or YYYY-MM-DD, UTC)")
		f.StringVar(&o.to, "to", "2026-11-01", "end of the period, exclusive (RFC 3339 or YYYY-MM-DD, UTC)")
		f.Int64Var(&o.seed, "seed", 1, "random seed")
		f.StringVar(&o.format, "format", "combined", "log format: "+strings.Join(loggen.Formats, ", "))
		f.BoolVar(&o.gzip, "gzip", false, "compress the log with gzip")
		f.StringVar(&o.robotsDir, "robots-dir", "", "also write the robots.txt history into this directory")
		f.StringVarP(&o.out, "out", "o", "", "output file (required; - for stdout)")
		f.StringSliceVar(&o.hosts, "host", []string{loggen.DefaultHost}, "virtual host(s) served; lines are split evenly (repeatable)")
		f.StringVar(&o.tz, "tz", "Europe/Berlin", "time zone of the offsets written in combined and jsonl logs")
		f.IntVar(&o.paths, "paths", 0, "about this many distinct request targets, requested with a Zipf law (0: the default site)")
		f.IntVar(&o.agents, "agents", 0, fmt.Sprintf("about this many distinct User-Agents, %d to %d (0: the default 46)", loggen.MinAgents, loggen.MaxAgents))
		f.Float64Var(&o.botShare, "bot-share", 0, "fraction of requests made by crawlers and scripts, in (0, 1) (0: the default mix, about 0.4)")
		f.IntVar(&o.robotsRules, "robots-rules", 0, fmt.Sprintf("Allow and Disallow rules of the last robots.txt version, %d to %d (0: the hand-written %d)", loggen.HandWrittenRules, loggen.MaxRobotsRules, loggen.HandWrittenRules))
		f.StringArrayVar(&o.outages, "robots-outage", nil, "robots.txt answers STATUS from START to END: START/END=STATUS (repeatable)")
		f.Float64Var(&o.signed, "signed", 0, "sign this share of the crawlers' requests (0 to 1) with test keys, as Web Bot Auth agents do (jsonl only; needs --keys-out)")
		f.StringVar(&o.keysOut, "keys-out", "", "with --signed, write the test signers' keys into `DIR`, for audit --keys DIR")
		f.Float64Var(&o.aiReferrals, "ai-referrals", 0, "fraction of visits that land from an AI assistant's answer (ChatGPT, Perplexity, Claude, Copilot, Gemini), in [0, 1)")
		f.BoolVar(&o.realistic, "realistic", false, "a real site's month: --paths lines*0.104 --agents 271 --bot-share 0.3 --robots-rules 60")
		return cmd
	})
}

// parseGenTime parses an RFC 3339 time or a YYYY-MM-DD date (UTC midnight).
func parseGenTime(flag, s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, usageErr("cannot parse --%s %q: want RFC 3339 (2026-10-01T00:00:00Z) or a date (2026-10-01)", flag, s)
	}
	return t, nil
}

// genConfig turns the options into a generator configuration.
func (o *genOptions) genConfig() (loggen.Config, error) {
	var cfg loggen.Config
	if o.out == "" {
		return cfg, usageErr("gen: -o FILE is required")
	}
	if o.lines < 0 {
		return cfg, usageErr("gen: --lines must not be negative, got %d", o.lines)
	}
	from, err := parseGenTime("from", o.from)
	if err != nil {
		return cfg, err
	}
	to, err := parseGenTime("to", o.to)
	if err != nil {
		return cfg, err
	}
	if to.Sub(from) < time.Hour {
		return cfg, usageErr("gen: --to %s must be at least one hour after --from %s", o.to, o.from)
	}
	for _, h := range o.hosts {
		if h == "" || h == "." || h == ".." || strings.ContainsAny(h, "/\\ \t\r\n\"") {
			return cfg, usageErr("gen: invalid --host %q", h)
		}
	}
	loc, err := time.LoadLocation(o.tz)
	if err != nil {
		return cfg, usageErr("gen: unknown time zone --tz %q", o.tz)
	}
	if !isFormat(o.format) {
		return cfg, usageErr("gen: unknown --format %q: use one of %s", o.format, strings.Join(loggen.Formats, ", "))
	}
	switch {
	case o.signed < 0 || o.signed > 1:
		return cfg, usageErr("gen: --signed %v must be a share from 0 to 1", o.signed)
	case o.signed > 0 && o.format != "jsonl":
		return cfg, usageErr("gen: --signed needs --format jsonl, whose lines carry the signature headers")
	case o.signed > 0 && o.keysOut == "":
		return cfg, usageErr("gen: --signed needs --keys-out DIR, the test signers' keys an audit needs (--keys DIR)")
	case o.signed == 0 && o.keysOut != "":
		return cfg, usageErr("gen: --keys-out needs --signed")
	}
	cfg = loggen.Config{Seed: o.seed, Start: from, End: to, Lines: o.lines, Hosts: o.hosts, Location: loc,
		Paths: o.paths, Agents: o.agents, BotShare: o.botShare, RobotsRules: o.robotsRules,
		AIReferrals: o.aiReferrals}
	for _, s := range o.outages {
		out, err := loggen.ParseOutage(s)
		if err != nil {
			return cfg, usageErr("gen: --robots-outage: %v", err)
		}
		cfg.RobotsOutages = append(cfg.RobotsOutages, out)
	}
	if o.realistic {
		r := loggen.RealisticConfig(o.lines)
		given := o.changed
		if given == nil {
			given = func(string) bool { return false }
		}
		if !given("paths") {
			cfg.Paths = r.Paths
		}
		if !given("agents") {
			cfg.Agents = r.Agents
		}
		if !given("bot-share") {
			cfg.BotShare = r.BotShare
		}
		if !given("robots-rules") {
			cfg.RobotsRules = r.RobotsRules
		}
	}
	switch {
	case cfg.Paths < 0 || cfg.Paths > cfg.Lines:
		return cfg, usageErr("gen: --paths %d: want 0 to --lines (%d)", cfg.Paths, cfg.Lines)
	case cfg.Agents != 0 && (cfg.Agents < loggen.MinAgents || cfg.Agents > loggen.MaxAgents):
		return cfg, usageErr("gen: --agents %d: want 0 or %d to %d", cfg.Agents, loggen.MinAgents, loggen.MaxAgents)
	case !(cfg.BotShare >= 0 && cfg.BotShare < 1):
		return cfg, usageErr("gen: --bot-share %g: want a fraction in (0, 1), or 0 for the default mix", cfg.BotShare)
	case cfg.RobotsRules != 0 && (cfg.RobotsRules < loggen.HandWrittenRules || cfg.RobotsRules > loggen.MaxRobotsRules):
		return cfg, usageErr("gen: --robots-rules %d: want 0 or %d to %d", cfg.RobotsRules, loggen.HandWrittenRules, loggen.MaxRobotsRules)
	case !(cfg.AIReferrals >= 0 && cfg.AIReferrals < 1):
		return cfg, usageErr("gen: --ai-referrals %g: want a fraction in [0, 1)", cfg.AIReferrals)
	}
	return cfg, nil
}

func isFormat(f string) bool {
	for _, g := range loggen.Formats {
		if f == g {
			return true
		}
	}
	return false
}

func runGen(e *env, o *genOptions) error {
	cfg, err := o.genConfig()
	if err != nil {
		return err
	}
	if o.robotsDir != "" {
		if err := writeRobotsHistory(o.robotsDir, cfg.Hosts, cfg.RobotsRules); err != nil {
			return usageErr("gen: %v", err)
		}
	}
	if o.out == "-" {
		return usageErrIf(genTo(e.stdout, cfg, o))
	}
	// Write to a temporary name in the same directory, rename when complete.
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return usageErr("gen: %v", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.out), "."+filepath.Base(o.out)+".*.tmp")
	if err != nil {
		return usageErr("gen: %v", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := genTo(tmp, cfg, o); err != nil {
		tmp.Close()
		return usageErr("gen: cannot write %s: %v", o.out, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return usageErr("gen: %v", err)
	}
	if err := tmp.Close(); err != nil {
		return usageErr("gen: cannot write %s: %v", o.out, err)
	}
	if err := os.Rename(tmp.Name(), o.out); err != nil {
		return usageErr("gen: %v", err)
	}
	return nil
}

func usageErrIf(err error) error {
	if err != nil {
		return usageErr("gen: %v", err)
	}
	return nil
}

// genTo writes the generated log to w.
func genTo(w io.Writer, cfg loggen.Config, o *genOptions) error {
	newWriter := loggen.NewWriter
	if o.gzip {
		newWriter = loggen.NewGzipWriter
	}
	rw, err := newWriter(w, o.format)
	if err != nil {
		return err
	}
	emit := rw.Write
	var sg *loggen.Signing
	if o.signed > 0 {
		sg = loggen.NewSigning(o.signed)
		emit = func(r *loggen.Request) error {
			if err := sg.Sign(r); err != nil {
				return err
			}
			return rw.Write(r)
		}
	}
	if err := loggen.Generate(cfg, emit); err != nil {
		return err
	}
	if sg != nil {
		if err := sg.WriteKeys(o.keysOut); err != nil {
			return fmt.Errorf("--keys-out %s: %w", o.keysOut, err)
		}
	}
	return rw.Close()
}

// writeRobotsHistory writes DIR/HOST/<RFC 3339>.txt for every version of
// every host's robots.txt, with rules rules in the last one (see
// loggen.RobotsHistory).
func writeRobotsHistory(dir string, hosts []string, rules int) error {
	if len(hosts) == 0 {
		hosts = []string{loggen.DefaultHost}
	}
	for _, h := range hosts {
		hd := filepath.Join(dir, h)
		if err := os.MkdirAll(hd, 0o755); err != nil {
			return err
		}
		vs, err := loggen.RobotsHistory(h, rules)
		if err != nil {
			return err
		}
		for _, v := range vs {
			if err := os.WriteFile(filepath.Join(hd, v.FileName()), []byte(v.Text), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
