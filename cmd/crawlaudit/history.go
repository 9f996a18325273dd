package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/wayback"
)

// historyFetchOptions are the flags of `crawlaudit history fetch`.
type historyFetchOptions struct {
	host     string
	out      string
	from, to string
	archive  string
	rate     float64
	retries  int
	timeout  time.Duration
	live     bool
	quiet    bool
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		hist := &cobra.Command{
			Use:   "history",
			Short: "Build a robots.txt history for --robots DIR",
			Long: `Most sites keep no history of their robots.txt; "history fetch" rebuilds one
from the web archive's captures, in the layout audit --robots DIR reads.`,
		}
		var opt historyFetchOptions
		fetch := &cobra.Command{
			Use:   "fetch --host NAME [--from T] [--to T] [--archive-url URL] [--live] -o DIR",
			Short: "Rebuild a site's robots.txt history from the web archive's captures",
			Long: `Lists the web archive's captures of NAME/robots.txt (the Wayback Machine's CDX
API; http:// and https://, with and without "www.", as the archive matches
them) and writes one version per change of content to DIR/NAME/<instant>.txt,
named by its first capture, with DIR/NAME/versions.json saying for each
version its first and last capture, its not_before (the last capture of the
version before: the earliest it can have gone live), status, digest, size and
capture URL, and listing the captures that made no version.

A 200 capture with new content is a new version; a 4xx capture is an empty
version (no robots.txt allows all) unless the one before is already empty;
redirects and server errors are listed but make no version.

It asks at most --rate requests a second, waits and retries when the archive
answers 429 or 5xx (honouring Retry-After), and never fetches a body twice:
the versions already in DIR/NAME are reused, and a run that stops half-way
keeps what it read in DIR/.NAME.captures for the next run. DIR/NAME is
replaced whole or not at all. --live also reads https://NAME/robots.txt and
adds it as a version dated now when it differs from the newest.

Audit with it: crawlaudit audit --robots DIR LOG...

Exit status: 0 the history was written; 2 usage or input error (the archive
unreachable, an answer that is not a capture list, a capture that is an HTML
page or over 500 KiB, no captures): nothing was written.`,
			Example: `  crawlaudit history fetch --host www.example.com --from 2026-07-01 -o robots/
  crawlaudit history fetch --host example.com --live -o robots/
  crawlaudit audit --robots robots/ /var/log/nginx/access.log*`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runHistoryFetch(cmd.Context(), e, &opt)
			},
		}
		f := fetch.Flags()
		f.StringVar(&opt.host, "host", "", "the site's host `NAME` (example.com)")
		f.StringVarP(&opt.out, "out", "o", "", "history `DIR`: the versions go to DIR/NAME/")
		f.StringVar(&opt.from, "from", "", "captures at or after `T` (RFC 3339, or a date: its start, UTC)")
		f.StringVar(&opt.to, "to", "", "captures at or before `T` (RFC 3339, or a date: its end, UTC)")
		f.StringVar(&opt.archive, "archive-url", wayback.DefaultArchive, "the archive's base `URL` (any server of the Wayback CDX API)")
		f.Float64Var(&opt.rate, "rate", 1, "most requests per second to the archive")
		f.IntVar(&opt.retries, "retries", 5, "retries of a request the archive answers 429 or 5xx, or that fails")
		f.DurationVar(&opt.timeout, "timeout", 60*time.Second, "timeout of one request")
		f.BoolVar(&opt.live, "live", false, "also read https://NAME/robots.txt and add it as a version dated now when it differs")
		f.BoolVarP(&opt.quiet, "quiet", "q", false, "no progress bar")
		hist.AddCommand(fetch)
		return hist
	})
}

func runHistoryFetch(ctx context.Context, e *env, opt *historyFetchOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.host == "" {
		return usageErr("history fetch: no --host given: name the site, like --host example.com")
	}
	if opt.out == "" {
		return usageErr("history fetch: no -o DIR given: name the history directory the versions go to (DIR/%s/)", opt.host)
	}
	if opt.rate <= 0 {
		return usageErr("history fetch: --rate %g: give the most requests per second, above 0 (1 by default)", opt.rate)
	}
	from, err := auditflags.ParseInstant(opt.from, false)
	if err != nil {
		return usageErr("history fetch: --from: %v", err)
	}
	to, err := auditflags.ParseInstant(opt.to, true)
	if err != nil {
		return usageErr("history fetch: --to: %v", err)
	}
	retries := opt.retries
	if retries == 0 {
		retries = -1 // wayback.Options: negative is none
	}
	wo := wayback.Options{
		Host: opt.host, Dir: opt.out, From: from, To: to, Archive: opt.archive,
		Rate: opt.rate, Retries: retries, Live: opt.live,
		UserAgent: "crawlaudit/" + toolVersion() + " (history fetch)",
		Client:    &http.Client{Timeout: opt.timeout},
	}
	var bar *progressbar.ProgressBar
	if e.stderrTTY && !opt.quiet {
		wo.OnBody = func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(e.stderr),
					progressbar.OptionSetDescription("captures"),
					progressbar.OptionShowCount(),
					progressbar.OptionSetWidth(30),
					progressbar.OptionSetRenderBlankState(true),
				)
			}
			bar.ChangeMax(total)
			_ = bar.Set(done)
		}
	}
	res, err := wayback.Fetch(ctx, wo)
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usageErr("history fetch: %v", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "crawlaudit: history fetch: warning: %s\n", report.TerminalSafe(w))
	}
	printHistoryFetch(e.stdout, opt.out, res)
	return nil
}

// printHistoryFetch tells what was written: one line per version, with the
// interval in which it went live.
func printHistoryFetch(w io.Writer, dir string, res *wayback.Result) {
	m := res.Manifest
	fmt.Fprintf(w, "%s: %d captures, %d versions, %d captures without a version → %s\n",
		m.Host, res.Captures, len(m.Versions), len(m.Unversioned), filepath.ToSlash(res.Dir))
	for _, v := range m.Versions {
		since := "live by"
		if v.NotBefore != nil {
			since = "live between " + v.NotBefore.UTC().Format(time.RFC3339) + " and"
		}
		what := fmt.Sprintf("%d bytes", v.Bytes)
		if v.Status != 200 {
			what = fmt.Sprintf("HTTP %d: empty, allows all", v.Status)
		}
		src := fmt.Sprintf("%d captures", v.Captures)
		if v.Captures == 1 {
			src = "1 capture"
		}
		if v.Live {
			src = "the site itself"
		}
		fmt.Fprintf(w, "  %s  %s %s  (%s, %s)\n", v.File, since, v.FirstSeen.UTC().Format(time.RFC3339), what, src)
	}
	for _, c := range m.Unversioned {
		fmt.Fprintf(w, "  no version: %s  HTTP %s  %s: %s\n", c.Time.UTC().Format(time.RFC3339), c.Status, report.TerminalSafe(c.Original), c.Reason)
	}
	if res.Live != "" {
		fmt.Fprintf(w, "live: %s\n", report.TerminalSafe(res.Live))
	}
	fmt.Fprintf(w, "%d bodies read from the archive, %d reused; %d requests to the archive\n", res.Fetched, res.Reused, res.Requests)
	fmt.Fprintf(w, "Audit with it: crawlaudit audit --robots %s LOG...\n", filepath.ToSlash(dir))
}
