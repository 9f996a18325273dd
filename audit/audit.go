//go:build duckdb_arrow

package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// Config is what an audit is asked to do.
type Config struct {
	// Robots is --robots SRC: a file, a directory of versions, or git:REPO//PATH.
	Robots string
	// History is the history of Robots already loaded, for a partial audit
	// whose process cannot read Robots (crawlaudit-beam's workers get it
	// in the pipeline); nil: NewPartialAuditor loads Robots.
	History *history.History
	// Host is --host: the host of log lines that carry none.
	Host string
	// Profile is the robots.txt semantics (--spec).
	Profile robots.Profile
	// Grace is the cache grace period (--grace) of the crawlers whose
	// operator documents none: a crawler may act on a cached robots.txt
	// for a while after it changed. 0 turns it off.
	Grace time.Duration
	// GraceForAll makes Grace the grace of every crawler, also of those
	// whose operator documents one (--grace given explicitly).
	GraceForAll bool
	// Operators are the operator rules (--operators); nil:
	// the built-in table.
	Operators *bots.Rules
	// WhatIf is a proposed robots.txt (--what-if, LoadWhatIf) that the bot
	// requests are judged against as well, as if in effect for the whole
	// period; nil: none.
	WhatIf *robots.File
	// From and To bound the audited period (inclusive); zero values are open.
	From, To time.Time
	// DB is the DuckDB file to keep the audit in; empty: in memory.
	DB string
	// SpillDir is the directory in whose file system an in-memory audit
	// spills what does not fit in memory (cmd gives --out's); empty: the
	// system's temporary directory. A DB file spills beside itself.
	SpillDir string
	// Ingest configures reading the logs.
	Ingest ingest.Options
	// Allocator for the judged batches; nil: an ingest.PoolAllocator.
	Allocator memory.Allocator
	// Timings, when not nil, receives the duration of each phase (for
	// benchmarks: the hidden --timings flag).
	Timings io.Writer
	// GoMemoryLimitAfterRead, when positive and below Go's soft memory
	// limit, becomes that limit once the logs are read, until the run
	// returns: the queries afterwards leave Go a smaller heap (the judge's
	// state is gone) and DuckDB its share, so that hostile logs stay within
	// the process's memory bound (docs/performance.md). cmd/crawlaudit sets
	// it with its own limit, unless GOMEMLIMIT is given.
	GoMemoryLimitAfterRead int64
	// Ranges are the operators' published range lists that verification
	// uses; nil: the built-in snapshot.
	Ranges *verify.Ranges
	// DNS configures forward-confirmed reverse DNS (--rdns, --rdns-cache).
	DNS DNSOptions
	// TrustedProxies are --trusted-proxy: behind them, the client is the
	// right-most address of the forwarded chain not in one of them.
	TrustedProxies []netip.Prefix
	// KeepGoing turns a --robots file that is plainly not a robots.txt
	// (HTML, binary, compressed) or has no directive into a warning: the
	// audit goes on with it.
	KeepGoing bool
	// SeenClients makes the audit remember the address of every client,
	// human ones included, so that a block list aggregated beyond exact
	// merges (BlockPolicy.Widest) never covers one that does not qualify.
	// It costs memory per distinct address.
	SeenClients bool
	// Keys are the signers' key directories that signed requests (Web Bot
	// Auth) are verified with, over the built-in snapshot (--keys DIR:
	// webbotauth.LoadDir); nil: the built-in snapshot alone.
	Keys *webbotauth.Keys
	// Signers are rows added to the built-in signer table (--keys DIR's
	// signers.json: webbotauth.LoadSigners).
	Signers []webbotauth.Signer
	// Lean is for a caller that reads only the summary: no Result method
	// that lists requests (WriteOut, WriteReport, StageParquet), nor
	// BlockList unless BlockList is set too.
	// An audit kept in memory (no DB) without WhatIf, of logs that can be
	// read twice (files), then gives DuckDB the judge's counts per bot,
	// host, claim and address in place of every bot request (see
	// leanCounts). When the judge's streamed measures give up it reads
	// the logs again storing every request, as it does from the start
	// with reverse DNS, which settles the claims at the end.
	Lean bool
	// BlockList says the caller will ask for Result.BlockList: a lean
	// audit then also keeps what the block list counts per client address
	// (leanBlocks), so that it may be lean.
	BlockList bool
}

// flushRows is how many judged rows are collected before they go to DuckDB.
const flushRows = 1 << 16

// Result is a finished audit. Close it to release the database.
type Result struct {
	Summary report.Summary
	store   *store.Store
	// judged: the table measures and the view judged exist (judged.sql).
	judged bool
	// noRobotsPeriods: no /robots.txt answer failed, so robots_status has
	// no row (emptyAvailability) and need not be asked.
	noRobotsPeriods bool
	// lean: DuckDB holds the judge's counts, not the requests (Config.Lean);
	// leanBlocks: and what the block list needs of them (Config.BlockList).
	lean, leanBlocks bool
	// sigStats counts the signature checks of the audit (computed, and
	// answered from the cache).
	sigStats webbotauth.Stats
	// Warnings are things the user should know that did not stop the audit
	// (skipped history files, logs with hosts an unnamed history judges).
	Warnings []string
	// logs are the log files read; clients the human clients' addresses,
	// sorted (only with Config.SeenClients).
	logs    []string
	clients []netip.Addr
	// ranges are the range lists the audit verified with: the block list
	// never widens over one of a crawler it does not block.
	ranges *verify.Ranges
	// hist is the robots.txt history the audit judged by (for reports
	// that show its versions).
	hist *history.History
	// operators are the operator rules the audit judged by (for the
	// reports' notes on crawlers that ignore Crawl-delay).
	operators *bots.Rules
	// dbTemp is the temporary name the audit kept with Config.DB is built
	// under until Commit renames it to dbFinal; "" once committed or
	// removed, and for an audit in memory.
	dbTemp, dbFinal string
	// dbWithOut: WriteOut publishes the kept audit with the files of
	// --out (PublishDBWithOut).
	dbWithOut bool
}

// PublishDBWithOut makes WriteOut close the database and rename the audit
// kept with Config.DB over its file in the same commit as the files of
// --out (one journal: a process killed between the two renames leaves
// both for the next run to complete), so that --out and --db are never of
// two runs. Nothing may read the database after that WriteOut; Commit then
// has nothing left to do.
func (r *Result) PublishDBWithOut() { r.dbWithOut = true }

// Close releases the database. An audit kept with Config.DB that was not
// committed is removed: the file the run found is left as it was.
func (r *Result) Close() error {
	err := r.store.Close()
	if r.dbTemp != "" {
		atomicfile.Remove(r.dbTemp)
		r.dbTemp = ""
	}
	return err
}

// Commit closes the database and, for an audit kept with Config.DB,
// renames the new database (built under a temporary name) over the file:
// from then on `crawlaudit query` sees this audit. Call it only once every
// output of the run is complete.
func (r *Result) Commit() error {
	if err := r.store.Close(); err != nil {
		return err
	}
	if r.dbTemp == "" {
		return nil
	}
	tmp := r.dbTemp
	r.dbTemp = ""
	if err := atomicfile.Rename(tmp, r.dbFinal); err != nil {
		atomicfile.Remove(tmp)
		return fmt.Errorf("cannot replace %s: %w", r.dbFinal, err)
	}
	return nil
}

// History returns the robots.txt history the audit judged by.
func (r *Result) History() *history.History { return r.hist }

// Store returns the audit's database, for reports.
func (r *Result) Store() *store.Store { return r.store }

// materialize stores the window measures of every request (table measures)
// and makes the view judged (queries/judged.sql), once: the summary does not
// need them, the reports that list requests and `crawlaudit query` do.
func (r *Result) materialize(ctx context.Context) error {
	if r.judged {
		return nil
	}
	if r.lean {
		return errors.New("this audit kept only the counts of its summary (audit.Config.Lean): run it without Lean for outputs that list requests")
	}
	if err := r.store.Exec(ctx, queries.SQL("judged.sql")); err != nil {
		return err
	}
	r.judged = true
	return nil
}

// Run performs an audit of logs. The input error of the ingest layer
// (an unreadable file, a truncated stream) is returned together with a
// complete Result: the caller reports, then decides the exit status.
//
// A compressed file that fails its integrity check (a gzip CRC, a zstd
// checksum, corrupt deflate data) contributes no row: its
// decompressed lines are damage, and a flipped byte can turn a browser
// into an invented bot. Rows are judged as they stream, so when the
// reading meets such a file the audit starts again without it (a second
// pass only when a file is damaged); the result names each excluded file
// with the member and offset where the check failed, in
// Summary.Input.Excluded, Warnings and the returned input error.
func Run(ctx context.Context, cfg Config, logs []string) (*Result, error) {
	var damaged []*ingest.IntegrityError
	lines := map[string]int64{}
	for {
		res, err := runOnce(ctx, cfg, logs, damaged)
		if errors.Is(err, errNeedsRows) && cfg.Lean {
			// The streamed measures gave up: the SQL measures them
			// from every request.
			cfg.Lean = false
			if cfg.Timings != nil {
				fmt.Fprintf(cfg.Timings, "%-28s reading again, storing every request (%v)\n", "lean counts gave up", err)
			}
			if cfg.Ingest.Progress != nil {
				fmt.Fprint(cfg.Ingest.Progress, "\r\033[Kaudit: too many bots or requests to measure while reading; reading the logs again to store every request\n")
			}
			continue
		}
		var again *damagedFiles
		if !errors.As(err, &again) {
			if res != nil {
				for _, d := range damaged {
					res.Summary.Input.Excluded = append(res.Summary.Input.Excluded, report.ExcludedFile{File: d.File, Lines: lines[d.File], Reason: strings.TrimPrefix(d.Error(), d.File+": ")})
					res.Warnings = append(res.Warnings, fmt.Sprintf("%s failed its integrity check, so none of its %d lines is audited: they are damage, not data", d.Error(), lines[d.File]))
				}
			}
			return res, err
		}
		for _, d := range again.errs {
			damaged = append(damaged, d)
			lines[d.File] = again.lines[d.File]
			cfg.Ingest.Exclude = append(cfg.Ingest.Exclude, d.File)
		}
		if cfg.Ingest.Progress != nil {
			fmt.Fprintf(cfg.Ingest.Progress, "\r\033[Kaudit: %s is damaged; reading the logs again without it\n", again.errs[0].File)
		}
	}
}

// damagedFiles stops a pass of the audit that read compressed files that
// failed their integrity check: Run starts again without them.
type damagedFiles struct {
	errs  []*ingest.IntegrityError
	lines map[string]int64 // lines read from each before the failure
}

func (e *damagedFiles) Error() string { return fmt.Sprintf("%d damaged files", len(e.errs)) }

// runOnce is one pass of Run over logs, without the files of damaged,
// whose errors it reports as input errors.
func runOnce(ctx context.Context, cfg Config, logs []string, damaged []*ingest.IntegrityError) (*Result, error) {
	begin := time.Now()
	// A --db FILE is built under a temporary name and renamed over FILE
	// only by Result.Commit, so that it appears whole or not at all: a run
	// that fails, is interrupted or audits nothing leaves the audit kept
	// earlier intact.
	dbPath := ""
	if cfg.DB != "" {
		if err := checkReplaceable(ctx, cfg.DB); err != nil {
			return nil, err
		}
		atomicfile.SweepStale(filepath.Dir(cfg.DB))
		dbPath = atomicfile.TempPath(cfg.DB)
	}
	// DuckDB starts while the history is read and the logs begin to flow:
	// the first batch waits for it, not the reading.
	pending := openStoreAsync(ctx, dbPath, cfg.SpillDir)
	ok := false
	defer func() {
		if !ok {
			if db, err := pending.wait(); err == nil {
				db.Close()
			}
			if dbPath != "" {
				atomicfile.Remove(dbPath)
			}
		}
	}()
	// The built-in range snapshot decodes while the history loads and the
	// first lines are parsed: the judge waits for it at the first bot.
	pendingRanges := readyRanges(cfg.Ranges)
	if cfg.Ranges == nil {
		ch := make(chan rangesResult, 1)
		go func() {
			r, err := verify.Snapshot()
			ch <- rangesResult{r, err}
		}()
		pendingRanges = ch
	}
	hist, err := history.Load(cfg.Robots, history.Options{Host: cfg.Host})
	if err != nil {
		return nil, err
	}
	robotsWarnings, err := checkRobots(hist, cfg.Robots, cfg.KeepGoing)
	if err != nil {
		return nil, err
	}
	res := &Result{Warnings: append(append([]string(nil), hist.Warnings()...), robotsWarnings...)}

	mem := cfg.Allocator
	if mem == nil {
		// Judged batches are released once DuckDB has copied them; the
		// pool hands their buffers to the next ones.
		mem = ingest.NewPoolAllocator()
	}
	ident := bots.NewIdentifier()
	j, err := newJudgeContext(ctx, mem, hist, cfg.Profile, ident, pendingRanges)
	if err != nil {
		return nil, err
	}
	defer j.release()
	configureJudge(j, cfg)
	j.sig = newSigJudge(cfg.Keys, cfg.Signers)
	res.operators = j.rules
	j.collectClients = cfg.SeenClients
	if !cfg.DNS.Live && cfg.DNS.CachePath == "" {
		// Reverse DNS settles claims, and so identities, at the end.
		j.spillWhileJudging()
		j.stream = newStreamKeys(hist)
		if cfg.Lean && cfg.DB == "" && cfg.WhatIf == nil && rereadable(logs) {
			j.lean = newLeanCounts(cfg.BlockList)
			j.stream.setLean()
			res.lean, res.leanBlocks = true, cfg.BlockList
		}
	}

	start := begin
	phase := func(name string) {
		if cfg.Timings != nil {
			fmt.Fprintf(cfg.Timings, "%-28s %v\n", name, time.Since(start).Round(time.Millisecond))
		}
		start = time.Now()
	}
	// After the ingest progress bar, the SQL phases say what they do on the
	// same terminal line, erased when the audit is done.
	status := func(msg string) {
		if cfg.Ingest.Progress != nil {
			fmt.Fprintf(cfg.Ingest.Progress, "\r\033[Kaudit: %s…", msg)
		}
	}
	defer func() {
		if cfg.Ingest.Progress != nil {
			fmt.Fprint(cfg.Ingest.Progress, "\r\033[K")
		}
	}()
	phase("history, robots.txt")
	acc, insertTime, inputErr, err := j.judgeInto(ctx, pending, cfg.Ingest, logs)
	if err != nil {
		return nil, err
	}
	if errors.Is(inputErr, errNeedsRows) {
		return nil, inputErr
	}
	if inputErr, err = withDamaged(acc, inputErr, damaged); err != nil {
		return nil, err
	}
	db, err := pending.wait()
	if err != nil {
		return nil, err
	}
	res.store = db
	res.dbTemp, res.dbFinal = dbPath, cfg.DB
	res.hist = hist
	// Named as the accounting names them: an object's URL without the
	// query, which may hold credentials.
	res.logs = make([]string, len(logs))
	for i, l := range logs {
		res.logs[i] = l
		if objstore.IsURL(l) {
			res.logs[i] = objstore.Name(l)
		}
	}
	if j.clients != nil {
		res.clients = make([]netip.Addr, 0, len(j.clients))
		for a := range j.clients {
			res.clients = append(res.clients, a)
		}
		slices.SortFunc(res.clients, netip.Addr.Compare)
	}
	if err := db.SetThreads(ctx, sqlThreads(j)); err != nil {
		return nil, err
	}
	if acc == nil {
		if inputErr == nil {
			inputErr = errors.New("ingest returned no accounting")
		}
		return nil, inputErr
	}
	if cfg.Timings != nil {
		lean := ""
		if j.lean != nil {
			lean = fmt.Sprintf(" stored as %d counts", j.lean.stored)
		}
		fmt.Fprintf(cfg.Timings, "%-28s %v (of which DuckDB inserts %v, %d bot rows%s)\n", "ingest+judge+insert", time.Since(start).Round(time.Millisecond), insertTime.Round(time.Millisecond), j.botRows, lean)
		start = time.Now()
	}
	if err := j.claims.rangesErr(); err != nil {
		return nil, err
	}
	dnsStats, err := j.claims.applyDNS(ctx, cfg.DNS)
	if err != nil {
		return nil, err
	}
	if w := dnsStats.warning(cfg.DNS.Resolver.BudgetOrDefault()); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	if cfg.DNS.Live || cfg.DNS.CachePath != "" {
		phase("reverse DNS")
	}
	status(fmt.Sprintf("storing %d bot requests", j.botRows))
	var dict arrow.RecordBatch
	if j.lean != nil {
		for _, id := range j.verdict {
			j.lean.name(id)
		}
		dict = j.lean.dictBatch(mem, j.dict)
	} else {
		dict = j.dictBatch(mem, j.dictStored) // the entries made after the last batch
	}
	err = db.Insert(ctx, "dict", dict)
	dict.Release()
	if err != nil {
		return nil, err
	}
	claimsBatch := j.claims.batch(mem)
	err = db.Insert(ctx, "claims", claimsBatch)
	claimsBatch.Release()
	if err != nil {
		return nil, err
	}
	if err := j.storeTables(ctx, db); err != nil {
		return nil, err
	}
	j.streamedChanges = j.stream.finishChanges(j.dict)
	j.streamedAvail = j.stream.availability()
	j.dropIngestState()
	if err := db.LimitAfterRead(ctx); err != nil {
		return nil, err
	}
	if lim := cfg.GoMemoryLimitAfterRead; lim > 0 {
		if prev := debug.SetMemoryLimit(-1); lim < prev {
			debug.SetMemoryLimit(lim)
			defer debug.SetMemoryLimit(prev)
		}
	}
	phase("dict and the small tables")
	if err := db.Exec(ctx, fmt.Sprintf("SET VARIABLE spec_google = %t", cfg.Profile == robots.Google)); err != nil {
		return nil, err
	}
	if err := db.Exec(ctx, fmt.Sprintf("SET VARIABLE robots_failed = %t", j.robotsFailed)); err != nil {
		return nil, err
	}
	if err := db.Exec(ctx, queries.SQL("bot_ops.sql")); err != nil {
		return nil, fmt.Errorf("robots.txt availability: %w", err)
	}
	if ok, err := j.streamedAvailability(ctx, db, cfg); err != nil {
		return nil, err
	} else if !ok {
		switch {
		case !j.robotsFailed && cfg.DB == "":
			// No bot's /robots.txt request was answered 4xx or 5xx, so no
			// period opens: availability.sql would plan its scans for
			// nothing. A kept database gets the SQL's own tables.
			if err := emptyAvailability(ctx, db); err != nil {
				return nil, err
			}
			res.noRobotsPeriods = true
		case j.lean != nil && j.robotsFailed:
			return nil, fmt.Errorf("%w: the robots.txt periods are left to the SQL", errNeedsRows) // availability.sql reads every request
		default:
			if err := db.Exec(ctx, queries.SQL("availability.sql")); err != nil {
				return nil, fmt.Errorf("robots.txt availability: %w", err)
			}
		}
	}
	phase("availability.sql")
	// The window functions serve the stored requests' measures (judged.sql)
	// and the summary's breaches when the judge did not stream them; a lean
	// audit stores no request.
	if j.lean == nil || !j.measured.windowsStreamed() {
		if err := db.Exec(ctx, queries.SQL("measures.sql")); err != nil {
			return nil, err
		}
	}
	status("measuring crawl-delay and request-rate windows")
	if err := res.summarize(ctx, cfg, hist, j, acc); err != nil {
		return nil, err
	}
	if j.lean != nil && j.lean.blocks != nil {
		if err := j.lean.blocks.store(ctx, db, j.decisions, j.measured.addrBreaches, j.unheld); err != nil {
			return nil, fmt.Errorf("block list: %w", err)
		}
	}
	res.Summary.Verification = verification(j.claims.ranges(), j.claims, cfg.DNS, dnsStats)
	res.Summary.Signatures = j.sig.summary()
	res.Summary.SetSigns()
	res.sigStats = j.sig.stats()
	res.ranges = j.claims.ranges()
	if p := predating(res.Summary.Bots, res.ranges); p != nil {
		res.Summary.Verification.Predating = p
		res.Warnings = append(res.Warnings, p.Sentence())
	}
	if res.Summary.RobotsStatus, err = res.robotsStatus(ctx); err != nil {
		return nil, err
	}
	phase("summary.sql (with windows)")
	res.hist = hist
	if res.Summary.Changes, err = res.changes(ctx, j); err != nil {
		return nil, err
	}
	phase("changes")
	if cfg.WhatIf != nil {
		if res.Summary.WhatIf, err = res.whatIf(ctx, j, cfg.WhatIf, cfg.Profile, mem); err != nil {
			return nil, err
		}
		phase("what-if")
	}
	if inputErr != nil && res.Summary.Input.Lines == 0 {
		return nil, inputErr // nothing read: the reason is the input error
	}
	hosts := make([]string, 0)
	for h := range j.traffic() {
		hosts = append(hosts, cmp.Or(h, "(none)"))
	}
	sort.Strings(hosts)
	if err := nothingAudited(&res.Summary.Input, res.Summary.Robots, cfg.Robots, acc.From, acc.To, hosts); err != nil {
		return nil, err
	}
	if cfg.DB != "" {
		// A kept audit has everything `crawlaudit query` may ask for.
		status("storing the measures of every request")
		if err := res.materialize(ctx); err != nil {
			return nil, err
		}
		phase("judged.sql")
	}
	if inputErr != nil {
		res.Summary.Input.Errors = append(res.Summary.Input.Errors, inputErr.Error())
	}
	if n := ident.UAPSkipped(); n > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d distinct User-Agents were not handed to the User-Agent parser, which gets at most %d a run to bound its time: they count as bots only if the crawler table or a crawler word names them", n, bots.MaxUAPCalls))
	}
	if n := len(j.traffic()); hist.AnyHost() && n > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the robots.txt history %s names no host, so it judged the requests of all %d hosts in the logs; use a per-host directory or --host", cfg.Robots, n))
	}
	ok = true
	return res, inputErr
}

// withDamaged is what a run makes of the input error of its reading: a
// *damagedFiles error (err) when a compressed file failed its integrity
// check in it, else the input error with the damaged files found before
// the run (skipped under --keep-going) joined to it.
func withDamaged(acc *ingest.Accounting, inputErr error, damaged []*ingest.IntegrityError) (error, error) {
	if bad := ingest.IntegrityErrors(inputErr); len(bad) > 0 {
		e := &damagedFiles{errs: bad, lines: map[string]int64{}}
		if acc != nil {
			for _, f := range acc.PerFile {
				e.lines[f.Name] = f.Lines
			}
		}
		return inputErr, e
	}
	if len(damaged) > 0 {
		errs := make([]error, 0, len(damaged)+1)
		for _, d := range damaged {
			errs = append(errs, d)
		}
		inputErr = errors.Join(append(errs, inputErr)...)
	}
	return inputErr, nil
}

// firstLine is the first line of s that is neither blank nor an SQL
// comment, to quote an error of DuckDB's in a message of one line.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
			return l
		}
	}
	return s
}
