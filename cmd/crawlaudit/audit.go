package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
	"github.com/crawlaudit/crawlaudit/verify"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

// auditOptions are the flags of `crawlaudit audit`: those it shares with
// crawlaudit-beam (auditflags.Values), then its own.
type auditOptions struct {
	auditflags.Values
	json            bool
	out, db         string
	parquet         string
	report          string
	whatIf          string // --what-if FILE
	blockMin        int
	blockOn         string
	blockVerified   bool
	blockFormat     string
	blockTTL        time.Duration
	blockAggregate  string
	keys            string // --keys DIR
	blockAggForce   bool
	allowList       string
	rdns            bool
	rdnsCache       string
	rdnsServer      string
	rdnsTimeout     time.Duration
	rdnsConcurrency int
	rdnsBudget      time.Duration
	batchRows       int
	quiet           bool
	failOn          string
	limit           int
	timings         bool
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command { return newAuditCmd(e, new(auditOptions)) })
}

// newAuditCmd is `crawlaudit audit` with its flags bound to opt.
func newAuditCmd(e *env, opt *auditOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit --robots SRC [flags] LOG...",
		Short: "Audit crawlers in access logs against the robots.txt in effect",
		Long: `Reads access logs and the history of the site's robots.txt and reports, per bot
and host, which requests broke the rules in effect when they were made:
disallowed requests, Crawl-delay, Request-rate and Visit-time breaches.

LOG is a file (plain, .gz, .zst, .bz2: detected by content), a directory (its
log files), a glob, or - for standard input. The format of each file is
detected from its first lines unless --format or --log-format is given.
LOG may also be an object-storage URL: s3://BUCKET/PREFIX/ (every object
under the prefix; gs:// and azblob:// alike, with gocloud.dev's query
parameters such as ?region=eu-west-1), a glob in the last segment
(s3://logs/cf/E2X.2026-10-*.gz), one object, or https://... for one object;
credentials come from each cloud's standard chain. With --from/--to, objects
whose key dates them (CloudFront, ALB, Logpush) more than a day outside the
period are not read.

--robots SRC is a robots.txt file (in effect for all time), a directory of
versions named by the UTC instant they went live (2026-10-01T00:00:00Z.txt,
2026-10-01.txt, 20261001T000000Z.txt), a directory with one such subdirectory
per host (DIR/example.com/...), or git:REPO//PATH (every committed version).

Metrics (per bot and host):
  requests        all requests of the bot; robots: those for /robots.txt
  disallowed      disallowed by its group in the version in effect
  in grace        disallowed, but allowed by the version in effect --grace
                  earlier (a crawler may cache robots.txt for 24 h)
  delay           requests less than Crawl-delay after the bot's previous one
  rate            requests with more than n of the bot's requests in
                  (time-t, time] under Request-rate n/t
  visit           requests outside the Visit-time window (UTC)

Who really made each request (identity, one row per bot, host and identity):
  verified        the client address is in the range list the crawler's
                  operator published, in the list in effect at the request's
                  time, or forward-confirmed reverse DNS (--rdns) says so
  spoofed         the operator's list in effect then does not hold the
                  address (and reverse DNS, where looked up, does not confirm
                  it): shown as "Googlebot (spoofed)", never blamed on Google
  unverified      nothing settles it: no list of that date, no published
                  ranges, a DNS timeout, no client address
The built-in snapshot of the operators' lists is used unless --ranges DIR
(made by crawlaudit ranges update) holds newer ones. A verified address is
never put on the block list unless --block-verified.

Reports (--out DIR): report.html, one self-contained page to open in a browser
or send (summary, bots with identity and a sparkline, requests per day with
each robots.txt change marked, broken rules with version and line, the
versions with a diff, top disallowed paths, breaches, block list, method;
no request leaves it, it reads without JavaScript), and report.md, the same
findings as Markdown tables for a ticket. --report FILE.html writes the page
alone.

Parquet (--parquet DIR): every judged bot request with every column of the
view judged, as DIR/host=HOST/day=YYYY-MM-DD/part-N.parquet (zstd; the host
escaped as Hive does; hosts with fewer than 100 bot requests a day that
--robots does not name share host=~other), for DuckDB, Spark, pandas:
  SELECT bot, count(*) FROM read_parquet('DIR/**/*.parquet',
      hive_partitioning = true) GROUP BY bot
DIR is replaced whole, at the same moment as --out, and only if it is a
dataset crawlaudit wrote (it holds _crawlaudit) or empty.

Block lists (--out DIR): blocklist.txt always; --block-format all (or a comma
list) adds blocklist.nft (nft -f), blocklist.ipset (ipset restore),
blocklist.iptables/.ip6tables (iptables-restore --noflush), blocklist.nginx.conf
(include), blocklist.apache.conf (Include), blocklist.haproxy.acl (src -n -f),
blocklist.cloudflare.csv, blocklist.aws-waf.json, blocklist.crowdsec.json
(cscli decisions import -i), blocklist.cidr.txt and blocklist.csv. Never an
address of --allow-list FILE, never loopback or multicast; --block-aggregate
/24,/64 merges up to those widths, never over another client seen in the logs
nor over a published range of a crawler not blocked (wider than /16,/48 only
with --block-aggregate-force). A verified crawler that broke rules is held
back, never blocked: summary.json "blocklist" counts what was held back and
the reports name those crawlers; --block-verified blocks them too.

Exit status: 0 success; 1 a bot has a finding of a --fail-on kind; 2 usage or
input error: a missing log, an input that audits nothing (no line, every line
outside --from/--to, no robots.txt version covering a bot request), a --robots
file that is HTML, binary or compressed, a truncated or damaged log (after the
report, --out and --db left as they were, unless --keep-going); 130 or 143
when interrupted by SIGINT or SIGTERM (nothing half-written is left).`,
		Example: `  # the sample month in the repository
  crawlaudit audit --robots testdata/sample/robots testdata/sample/access-2026-10.log.gz

  # last month's rotated logs, a robots.txt history kept in git, files for a firewall
  crawlaudit audit --robots git:/srv/site//public/robots.txt --host www.example.com \
      --from 2026-10-01 --to 2026-10-31 --out report/ /var/log/nginx/access.log*

  # an nftables set of impostors and rule breakers, never the allow-listed partner
  crawlaudit audit --robots robots.txt --out out/ --block-format nftables \
      --allow-list partners.txt --block-min 5 access.log && nft -f out/blocklist.nft`,
		Args: needArgs("audit", "no LOG given: name the access log files or directories to audit, or - to read standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAudit(cmd.Context(), e, opt, args)
		},
	}
	f := cmd.Flags()
	opt.Register(f, auditflags.Audit, formatNames())
	f.BoolVar(&opt.json, "json", false, "print the summary as JSON (summary.json) instead of a table")
	f.StringVar(&opt.out, "out", "", "write summary.json, violations.csv, breaches.csv, blocklist.txt, report.html, report.md (and the --block-format files) into `DIR`, all or none")
	f.StringVar(&opt.report, "report", "", "write the HTML report alone to `FILE.html` (--out writes it as report.html, with report.md)")
	f.StringVar(&opt.parquet, "parquet", "", "write the judged bot requests as a Parquet dataset partitioned by host and day into `DIR` (replaced whole, with --out)")
	f.StringVar(&opt.db, "db", "", "keep the audit in the DuckDB `FILE` (for crawlaudit query); default in memory")
	f.StringVar(&opt.whatIf, "what-if", "", "also judge the bot requests against a proposed robots.txt `FILE`, as if in effect all along: what_if in summary.json, a short table")
	f.IntVar(&opt.blockMin, "block-min", 1, "requests of one --block-on kind that put a client address on the block list")
	f.StringVar(&opt.blockOn, "block-on", strings.Join(audit.DefaultBlockOn, ","), "`KINDS` that put an address on the block list: "+strings.Join(audit.BlockKinds, ", "))
	f.BoolVar(&opt.blockVerified, "block-verified", false, "allow addresses verified as their crawler's operator's on the block list")
	f.StringVar(&opt.blockFormat, "block-format", "", "block-list `FORMATS` written into --out beside blocklist.txt: all, or a comma list of "+strings.Join(firewall.FormatNames(), ", "))
	f.DurationVar(&opt.blockTTL, "block-ttl", audit.DefaultBlockTTL, "how long a firewall keeps a blocked entry (nftables, ipset, crowdsec); 0: for ever")
	f.StringVar(&opt.blockAggregate, "block-aggregate", "", "widest merged prefix `LENGTHS` per family, IPv4 then IPv6 (/24,/64; at most /16,/48), never covering another address seen in the logs nor a published range of a crawler not blocked (default: exact merges only)")
	f.BoolVar(&opt.blockAggForce, "block-aggregate-force", false, "allow --block-aggregate wider than /16 (IPv4) or /48 (IPv6): whole networks of a provider")
	f.StringVar(&opt.allowList, "allow-list", "", "never block an address in `FILE` (one address or CIDR per line, # comments)")
	f.BoolVar(&opt.rdns, "rdns", false, "verify addresses the ranges do not settle with forward-confirmed reverse DNS (queries your resolver)")
	f.StringVar(&opt.rdnsCache, "rdns-cache", "", "keep reverse DNS answers in `FILE` (JSON lines) and reuse them; without --rdns only its answers are used")
	f.StringVar(&opt.rdnsServer, "rdns-server", "", "DNS server `HOST:PORT` for --rdns (default: the first nameserver of /etc/resolv.conf)")
	f.DurationVar(&opt.rdnsTimeout, "rdns-timeout", 2*time.Second, "timeout of one DNS query")
	f.IntVar(&opt.rdnsConcurrency, "rdns-concurrency", 16, "addresses looked up at once")
	f.DurationVar(&opt.rdnsBudget, "rdns-budget", rdns.DefaultBudget, "time all the lookups of a run may take; an address not looked up by then stays unverified")
	f.StringVar(&opt.keys, "keys", "", "signers' key directories in `DIR`/<signer host>/<instant>.json (crawlaudit keys update) over the built-in snapshot, to verify signed requests; DIR/signers.json may add signers")
	f.IntVar(&opt.batchRows, "batch-rows", 0, "rows per Arrow record batch (default 32768)")
	f.StringVar(&opt.failOn, "fail-on", "", "exit 1 when a bot has a finding of these `KINDS` (for cron and CI): "+strings.Join(failKindNames(), ", "))
	f.BoolVarP(&opt.quiet, "quiet", "q", false, "no progress bar")
	f.IntVar(&opt.limit, "limit", 40, "bots shown in the terminal table (0: all)")
	f.BoolVar(&opt.timings, "timings", false, "print the duration of each phase on stderr")
	_ = f.MarkHidden("timings")
	return cmd
}

// runAudit audits logs as opt asks: parse (done by cobra), config, run,
// publish the outputs, print.
func runAudit(ctx context.Context, e *env, opt *auditOptions, logs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	cfg, block, err := opt.config(e)
	if err != nil {
		return err
	}
	if err := missingLogs(logs); err != nil {
		return usageErr("audit: %v", err)
	}
	if opt.parquet != "" {
		if err := audit.CheckParquetDir(opt.parquet); err != nil {
			return usageErr("audit: --parquet: %v", err)
		}
	}
	unlock, err := lockOutputs(opt)
	if err != nil {
		return usageErr("audit: %v", err)
	}
	defer unlock()
	if opt.out != "" {
		// What a killed run (SIGKILL) left goes first, whatever becomes
		// of this one: a set it was publishing is completed, its
		// temporary files removed.
		atomicfile.SweepStale(opt.out)
	}
	spill := spillDir(opt, &cfg)
	// Said before the minutes of reading, not when DuckDB's memory is
	// full.
	if warning, err := audit.CheckSpillSpace(spill, logs); err != nil {
		return usageErr("audit: %v", err)
	} else if warning != "" {
		fmt.Fprintf(e.stderr, "crawlaudit: warning: %s\n", warning)
	}
	res, err := audit.Run(ctx, cfg, logs)
	if res == nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usageErr("audit: %v%s", err, spillHint(err, spill))
	}
	inputErr := err
	replace := inputErr == nil || opt.KeepGoing
	pub, err := res.Publish(ctx, audit.PublishOptions{Out: opt.out, Parquet: opt.parquet, Report: opt.report,
		Block: block, Replace: replace, BlockList: opt.json})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usageErr("audit: %v%s", err, spillHint(err, spill))
	}
	if err := printAudit(e, opt, res, block, replace, pub); err != nil {
		return err
	}
	if inputErr != nil {
		if opt.KeepGoing {
			fmt.Fprintf(e.stderr, "crawlaudit: warning: %s\n", report.TerminalSafe(inputErr.Error()))
		} else {
			kept := ""
			if opt.out != "" || cfg.DB != "" || opt.parquet != "" {
				kept = "; --out, --db and --parquet were left as they were"
			}
			return &exitError{code: exitUsage, err: fmt.Errorf("audit: %s (the report above covers what could be read%s; --keep-going exits 0 and writes them)", firstLineOf(inputErr), kept)}
		}
	}
	if failOn, _ := parseFailOn(opt.failOn); len(failOn) > 0 { // checked by config
		if found := failFindings(&res.Summary, failOn); len(found) > 0 {
			for _, f := range found {
				fmt.Fprintf(e.stderr, "crawlaudit: --fail-on: %s\n", f)
			}
			return &exitError{code: exitFound}
		}
	}
	return nil
}

// config checks the options and returns the audit's configuration and
// the block-list policy, or a usage error naming the flag.
func (opt *auditOptions) config(e *env) (audit.Config, audit.BlockPolicy, error) {
	var block audit.BlockPolicy
	cfg, err := opt.Values.Config(func(dir string) (*verify.Ranges, error) {
		r, err := loadRanges(e.stderr, dir)
		if err != nil {
			return nil, fmt.Errorf("--ranges: %w", err)
		}
		return r, nil
	})
	if err != nil {
		return cfg, block, usageErr("audit: %v", err)
	}
	cfg.GoMemoryLimitAfterRead = afterReadLimit()
	if opt.keys != "" {
		if cfg.Keys, cfg.Signers, err = loadKeysDir(e.stderr, opt.keys); err != nil {
			return cfg, block, usageErr("audit: --keys: %v", err)
		}
	}
	cfg.DB = opt.db
	// Only the summary is read, and with --json its block list: DuckDB
	// gets the judge's counts, not every request.
	cfg.Lean = opt.out == "" && opt.parquet == "" && opt.report == ""
	cfg.BlockList = opt.json
	cfg.Ingest.BatchRows = opt.batchRows
	cfg.Ingest.Stdin = e.stdin
	if opt.whatIf != "" {
		if cfg.WhatIf, err = audit.LoadWhatIf(opt.whatIf); err != nil {
			return cfg, block, usageErr("audit: --what-if: %v", err)
		}
	}
	if e.stderrTTY && !opt.quiet {
		cfg.Ingest.Progress = e.stderr
	}
	block = audit.BlockPolicy{Min: opt.blockMin, Verified: opt.blockVerified}
	if block.On, err = audit.ParseBlockOn(opt.blockOn); err != nil {
		return cfg, block, usageErr("audit: --block-on: %v", err)
	}
	if _, err := parseFailOn(opt.failOn); err != nil {
		return cfg, block, usageErr("audit: --fail-on: %v", err)
	}
	if opt.blockMin < 1 {
		return cfg, block, usageErr("audit: --block-min must be at least 1")
	}
	if block.Formats, err = firewall.ParseFormats(opt.blockFormat); err != nil {
		return cfg, block, usageErr("audit: %v", err)
	}
	if len(block.Formats) > 0 && opt.out == "" {
		return cfg, block, usageErr("audit: --block-format writes files into --out DIR: give --out")
	}
	if opt.blockTTL < 0 {
		return cfg, block, usageErr("audit: --block-ttl must not be negative")
	}
	block.TTL = opt.blockTTL
	if block.Widest, err = firewall.ParseWidest(opt.blockAggregate); err != nil {
		return cfg, block, usageErr("audit: %v", err)
	}
	if err := block.Widest.CheckSafe(); err != nil && !opt.blockAggForce {
		return cfg, block, usageErr("audit: %v", err)
	}
	// Widened prefixes (--block-aggregate; Cloudflare's IPv6 /64) must not
	// cover a client that does not qualify: the audit remembers them all.
	cfg.SeenClients = block.Widest != (firewall.Widest{}) ||
		slices.ContainsFunc(block.Formats, func(f firewall.Format) bool { return f.Name == "cloudflare" })
	if opt.allowList != "" {
		f, err := os.Open(opt.allowList)
		if err != nil {
			return cfg, block, usageErr("audit: --allow-list: %v", err)
		}
		block.Allow, err = firewall.ParseAllowList(f, opt.allowList)
		f.Close()
		if err != nil {
			return cfg, block, usageErr("audit: --allow-list: %v", err)
		}
		block.AllowFile = opt.allowList
	}
	block.Tool = "crawlaudit " + toolVersion()
	if opt.rdnsConcurrency < 1 || opt.rdnsTimeout <= 0 || opt.rdnsBudget <= 0 {
		return cfg, block, usageErr("audit: --rdns-concurrency, --rdns-timeout and --rdns-budget must be positive")
	}
	server := opt.rdnsServer
	if server != "" {
		if server, err = rdns.ParseServer(server); err != nil {
			return cfg, block, usageErr("audit: --rdns-server: %v", err)
		}
	}
	cfg.DNS = audit.DNSOptions{Live: opt.rdns, CachePath: opt.rdnsCache,
		Resolver: &rdns.Resolver{Server: server, Timeout: opt.rdnsTimeout, Concurrency: opt.rdnsConcurrency, Budget: opt.rdnsBudget}}
	if opt.rdns && e.stderrTTY && !opt.quiet {
		cfg.DNS.Progress = func(done, total int) {
			fmt.Fprintf(e.stderr, "\r\033[Kreverse DNS: %d of %d addresses", done, total)
			if done == total {
				fmt.Fprint(e.stderr, "\r\033[K")
			}
		}
	}
	if opt.timings {
		cfg.Timings = e.stderr
	}
	return cfg, block, nil
}

// spillDir is where DuckDB spills: beside what the audit writes, as that
// disk has room for the output where /tmp is often small. It sets
// cfg.SpillDir where the audit runs in memory.
func spillDir(opt *auditOptions, cfg *audit.Config) string {
	switch {
	case opt.out != "":
		// --out is created only when its files are written.
		cfg.SpillDir = existingDir(opt.out)
		return cfg.SpillDir
	case opt.db != "":
		return filepath.Dir(opt.db) // DuckDB spills beside the file
	case opt.parquet != "":
		cfg.SpillDir = filepath.Dir(filepath.Clean(opt.parquet))
		return cfg.SpillDir
	}
	return os.TempDir()
}

// printAudit prints what the audit found and what it wrote: rejected
// lines and warnings on stderr, the summary on stdout (a table, or
// summary.json with --json), then the files written.
func printAudit(e *env, opt *auditOptions, res *audit.Result, block audit.BlockPolicy, replace bool, pub audit.Published) error {
	printRejected(e, &res.Summary.Input)
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "crawlaudit: warning: %s\n", report.TerminalSafe(w))
	}
	if opt.json {
		if err := report.WriteJSON(e.stdout, &res.Summary); err != nil {
			return err
		}
	} else {
		if err := report.WriteTable(e.stdout, &res.Summary, report.TableOptions{Terminal: e.stdoutTTY, Limit: opt.limit,
			Width: e.stdoutWidth, Color: e.color, Next: nextSteps(opt)}); err != nil {
			return err
		}
		// Piped, stdout holds the bots' rows alone, for a script: the
		// what-if table goes to stderr on a terminal, else one sentence
		// does (summary.json has every row).
		if wi := res.Summary.WhatIf; wi != nil {
			var err error
			switch {
			case e.stdoutTTY:
				err = report.WriteWhatIf(e.stdout, wi, opt.whatIf, true, e.stdoutWidth)
			case e.stderrTTY:
				err = report.WriteWhatIf(e.stderr, wi, opt.whatIf, true, e.stdoutWidth)
			default:
				fmt.Fprintf(e.stderr, "crawlaudit: %s what_if in summary.json (--json, --out DIR) has every bot and host.\n", report.WhatIfLine(wi, opt.whatIf))
			}
			if err != nil {
				return err
			}
		}
	}
	if opt.json {
		return nil
	}
	if opt.out != "" && replace {
		files := slices.Clone(audit.OutFiles)
		for _, f := range block.Formats {
			for _, file := range f.Files {
				files = append(files, file.Name)
			}
		}
		fmt.Fprintf(e.stderr, "Wrote %s to %s\n", strings.Join(files, ", "), opt.out)
	}
	if opt.report != "" && replace {
		fmt.Fprintf(e.stderr, "Wrote the report to %s\n", opt.report)
	}
	if pub.Parquet != nil {
		fmt.Fprintf(e.stderr, "Wrote %d bot requests in %d Parquet files to %s\n", pub.Parquet.Rows, pub.Parquet.Files, opt.parquet)
	}
	return nil
}

// spillHint is what to do about an error of DuckDB running out of memory
// or of disk space for what it spills into dir ("" for another error):
// DuckDB's own advice (threads, memory_limit) is not for a user of
// crawlaudit.
func spillHint(err error, dir string) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "max_temp_directory_size"), strings.Contains(msg, "No space left"):
		return "\n  the disk of " + dir + " is full: free space there, or write the outputs on another disk"
	case strings.Contains(msg, "Out of Memory Error"):
		return "\n  DuckDB ran out of memory: CRAWLAUDIT_DUCKDB_MEMORY=1GB (or more) lets it hold more before it spills to " + dir + ", and --db FILE keeps the audit on disk"
	}
	return ""
}

// lockOutputs takes the lock of --out, --db and --parquet before the logs
// are read: a second audit into the same output stops at once, naming the
// process that writes it, rather than both finishing and the last silently
// replacing the other's files. The lock file is beside the output, so that
// a run that writes nothing (a damaged log) creates nothing in --out; in
// the directory itself when its parent is not writable. An output whose
// directory does not exist yet is not locked (it is created at the end).
// unlock releases them all.
func lockOutputs(opt *auditOptions) (unlock func(), err error) {
	var locks []*atomicfile.Lock
	unlock = func() {
		for _, l := range locks {
			l.Unlock()
		}
	}
	for _, o := range []struct{ flag, target string }{{"--out", opt.out}, {"--db", opt.db}, {"--parquet", opt.parquet}} {
		if o.target == "" {
			continue
		}
		target := filepath.Clean(o.target)
		if _, err := os.Stat(filepath.Dir(target)); err != nil {
			continue
		}
		l, err := atomicfile.TryLock(target, false)
		if err != nil && !isLocked(err) {
			if fi, serr := os.Stat(target); serr == nil && fi.IsDir() {
				l, err = atomicfile.TryLock(target, true)
			}
		}
		if err != nil {
			unlock()
			return nil, fmt.Errorf("%s: %w", o.flag, err)
		}
		locks = append(locks, l)
	}
	return unlock, nil
}

// isLocked reports whether err is another process holding a lock.
func isLocked(err error) bool {
	var le *atomicfile.LockedError
	return errors.As(err, &le)
}

// existingDir is dir, or its nearest ancestor that exists.
func existingDir(dir string) string {
	dir = filepath.Clean(dir)
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// nextSteps is the table's footer: what to do next.
func nextSteps(opt *auditOptions) string {
	if opt.out == "" {
		return "Next: --out DIR writes report.html (a page with charts to read or send), report.md (with sections on conduct, referrals and AI-use preferences), summary.json, agents.json (what each crawler was seen to respect), violations.csv (every disallowed request with its robots.txt rule), breaches.csv and blocklist.txt; --block-format all adds files for nftables, ipset, iptables, nginx, Apache, HAProxy, Cloudflare, AWS WAF and CrowdSec; --db FILE keeps the audit for crawlaudit query."
	}
	return "Next: open " + opt.out + "/report.html in a browser (report.md for a ticket): beside the violations, its sections conduct, referrals and preferences show how each crawler behaved, what each AI operator sent back and where the site's AI-use preferences applied; agents.json what each crawler was seen to respect; violations.csv lists every disallowed request with its robots.txt rule, breaches.csv every breach; blocklist.txt the addresses to block (--help shows how to load each firewall format)."
}

// maxRejectedShown is how many rejected lines audit prints on stderr.
const maxRejectedShown = 5

// printRejected prints the first rejected lines with file and line on
// stderr, so that a user can find and fix them, cut and made safe for a
// terminal (a log line may hold escape sequences).
func printRejected(e *env, in *report.Input) {
	if in.Rejected == 0 {
		return
	}
	fmt.Fprintf(e.stderr, "crawlaudit: %d of %d log lines rejected", in.Rejected, in.Lines)
	if len(in.Samples) == 0 {
		fmt.Fprintln(e.stderr)
		return
	}
	fmt.Fprintln(e.stderr, "; the first:")
	for i, s := range in.Samples {
		if i == maxRejectedShown {
			fmt.Fprintf(e.stderr, "  … (summary.json input.rejected_samples has more)\n")
			break
		}
		fmt.Fprintf(e.stderr, "  %s:%d: %s: %s\n", report.Printable(s.File, 80), s.Line, s.Reason, report.Printable(s.Text, 100))
	}
}

// afterReadLimit is audit.Config.GoMemoryLimitAfterRead: none when
// GOMEMLIMIT sets Go's limit.
func afterReadLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	return goMemoryLimitAfterRead
}
