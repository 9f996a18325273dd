package wayback

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// DefaultArchive is the archive Fetch asks when Options.Archive is empty.
const DefaultArchive = "https://web.archive.org"

// MaxBodyBytes is the largest capture accepted: 500 KiB, the parsing limit
// RFC 9309 §2.5 asks crawlers to allow at least.
const MaxBodyBytes = robots.MaxFileBytes

// cdxPageSize is the number of captures asked for per CDX request; the
// resumption key brings the rest.
var cdxPageSize = 10000

// sleepHook, set by tests, replaces the wait between retries.
var sleepHook func(ctx context.Context, d time.Duration) error

// Options adjusts Fetch.
type Options struct {
	// Host is the site (NAME): its robots.txt captures are listed and the
	// versions written to Dir/Host.
	Host string
	// Dir is the history directory (-o DIR); it is created when missing.
	Dir string
	// From and To bound the captures listed (zero: open).
	From, To time.Time
	// Archive is the archive's base URL; DefaultArchive when empty.
	Archive string
	// Rate is the most requests per second to the archive; 1 when 0.
	Rate float64
	// Retries is how many times a request is retried after a 429, a 5xx or
	// a network error; 5 when 0, none when negative.
	Retries int
	// Backoff is the first wait between retries when the archive gives no
	// Retry-After (doubled each time); 2 s when 0. MaxWait caps a wait: a
	// longer Retry-After gives up; 2 min when 0.
	Backoff, MaxWait time.Duration
	// Live also fetches https://Host/robots.txt and adds it as a version
	// dated now when it differs from the newest.
	Live bool
	// UserAgent is sent with every request.
	UserAgent string
	// Client makes the requests to the archive; http.DefaultClient's
	// transport with a 60 s timeout when nil.
	Client *http.Client
	// OnBody, when set, is called after each body read from the archive,
	// with the number read so far and the number of bodies needed at most.
	OnBody func(done, total int)
	// Now is the clock (time.Now when nil); the live version is dated by it.
	Now func() time.Time
}

// Result says what Fetch did.
type Result struct {
	// Dir is the host directory written (Dir/Host).
	Dir string
	// Manifest is what versions.json holds.
	Manifest history.Manifest
	// Captures is the number of captures listed.
	Captures int
	// Fetched is the number of bodies read from the archive; Reused those
	// read from the directory or the bodies kept by a stopped run.
	Fetched, Reused int
	// Requests is the number of requests made to the archive, retries
	// included.
	Requests int64
	// Live says what --live found ("" without it).
	Live string
	// Warnings are what went wrong without stopping the fetch.
	Warnings []string
}

// fetcher is the state of one Fetch.
type fetcher struct {
	opt      Options
	host     string
	archive  string
	target   string // Dir/host
	cacheDir string // Dir/.host.captures
	c        *client
	now      func() time.Time
	prev     map[string][]byte           // digest -> body, of the versions already in target
	checks   []history.ManifestLiveCheck // of earlier --live runs
	known    map[string][]byte           // digest -> body, read in this run
	res      *Result
	need     int
	done     int
}

// version is a version being built.
type version struct {
	history.ManifestVersion
	body []byte
}

// Fetch lists the archive's captures of opt.Host's robots.txt, rebuilds its
// versions as the package comment says, and writes them to Dir/Host with a
// versions.json, replacing what was there. Every error names the URL or
// file it is about; on error Dir/Host is as it was.
func Fetch(ctx context.Context, opt Options) (*Result, error) {
	f, err := newFetcher(opt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", opt.Dir, err)
	}
	lock, err := atomicfile.TryLock(f.target, false)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	atomicfile.SweepStaleOf(opt.Dir, f.host) // what killed runs left
	if err := f.readPrevious(); err != nil {
		return nil, err
	}
	caps, err := f.list(ctx)
	if err != nil {
		return nil, err
	}
	f.res.Captures = len(caps)
	if len(caps) > 0 {
		caps = f.withLiveChecks(caps)
	}
	if len(caps) == 0 {
		return nil, fmt.Errorf("%s: the archive has no captures of %s/robots.txt%s: check the host name (without https:// or a path), or widen --from/--to; nothing was written",
			cdxURL(f.archive, f.host, opt.From, opt.To, cdxPageSize, ""), f.host, period(opt.From, opt.To))
	}
	vs, err := f.build(ctx, caps)
	if err != nil {
		return nil, f.keptNote(err)
	}
	if opt.Live {
		if vs, err = f.live(ctx, vs); err != nil {
			return nil, f.keptNote(err)
		}
	}
	f.res.Requests = f.c.requests.Load()
	if err := f.write(vs); err != nil {
		return nil, f.keptNote(err)
	}
	os.RemoveAll(f.cacheDir)
	return f.res, nil
}

func newFetcher(opt Options) (*fetcher, error) {
	host, err := checkHost(opt.Host)
	if err != nil {
		return nil, err
	}
	if opt.Dir == "" {
		return nil, errors.New("no output directory given")
	}
	archive := strings.TrimRight(opt.Archive, "/")
	if archive == "" {
		archive = DefaultArchive
	}
	if u, err := url.Parse(archive); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("archive URL %q is not an http or https URL (like %s)", opt.Archive, DefaultArchive)
	}
	if !opt.From.IsZero() && !opt.To.IsZero() && opt.To.Before(opt.From) {
		return nil, fmt.Errorf("--to %s is before --from %s", opt.To.Format(time.RFC3339), opt.From.Format(time.RFC3339))
	}
	r := opt.Rate
	switch {
	case r == 0:
		r = 1
	case r < 0:
		return nil, fmt.Errorf("rate %g is not a number of requests per second above 0", r)
	}
	retries := opt.Retries
	switch {
	case retries == 0:
		retries = 5
	case retries < 0:
		retries = 0
	}
	backoff, maxWait := opt.Backoff, opt.MaxWait
	if backoff <= 0 {
		backoff = 2 * time.Second
	}
	if maxWait <= 0 {
		maxWait = 2 * time.Minute
	}
	hc := opt.Client
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	sleep := sleepCtx
	if sleepHook != nil {
		sleep = sleepHook
	}
	ua := opt.UserAgent
	if ua == "" {
		ua = "crawlaudit-history-fetch"
	}
	return &fetcher{
		opt: opt, host: host, archive: archive,
		target:   filepath.Join(opt.Dir, host),
		cacheDir: filepath.Join(opt.Dir, "."+host+".captures"),
		c: &client{http: hc, limiter: rate.NewLimiter(rate.Limit(r), 1), retries: retries,
			backoff: backoff, maxWait: maxWait, userAgent: ua, now: now, sleep: sleep},
		now:   now,
		prev:  make(map[string][]byte),
		known: make(map[string][]byte),
		res:   &Result{},
	}, nil
}

// checkHost returns the host name NAME in its normal form, or an error
// saying what to give instead.
func checkHost(name string) (string, error) {
	if name == "" {
		return "", errors.New("no host given: name the site, like example.com")
	}
	if strings.Contains(name, "://") || strings.ContainsAny(name, "/?#@ \t\\") {
		return "", fmt.Errorf("host %q: give the host name alone, like example.com (no scheme, path or port)", name)
	}
	h := history.NormalizeHost(name)
	if h == "" || h != strings.ToLower(strings.TrimRight(name, ".")) || strings.HasPrefix(h, ".") {
		return "", fmt.Errorf("host %q: give the host name alone, like example.com (no scheme, path or port)", name)
	}
	return h, nil
}

// period says " between FROM and TO" for an error, "" when open.
func period(from, to time.Time) string {
	switch {
	case !from.IsZero() && !to.IsZero():
		return fmt.Sprintf(" between %s and %s", from.Format(time.RFC3339), to.Format(time.RFC3339))
	case !from.IsZero():
		return " since " + from.Format(time.RFC3339)
	case !to.IsZero():
		return " until " + to.Format(time.RFC3339)
	}
	return ""
}

// list returns every capture in the period, in time order, following the
// resumption keys.
func (f *fetcher) list(ctx context.Context) ([]Capture, error) {
	var all []Capture
	key := ""
	for page := 0; ; page++ {
		u := cdxURL(f.archive, f.host, f.opt.From, f.opt.To, cdxPageSize, key)
		r, err := f.c.get(ctx, u, 256<<20)
		if err != nil {
			return nil, err
		}
		if r.status != http.StatusOK {
			return nil, fmt.Errorf("%s: the archive answered HTTP %d %s to the capture list%s", u, r.status, http.StatusText(r.status), snippet(r.body))
		}
		caps, next, err := ParseCDX(r.body)
		if err != nil {
			return nil, fmt.Errorf("%s: the capture list is unreadable: %w%s", u, err, snippet(r.body))
		}
		all = append(all, caps...)
		if next == "" || next == key || page > 10000 {
			break
		}
		key = next
	}
	sortCaptures(all)
	return all, nil
}

// snippet is the start of a body that was not what was expected, for an
// error message.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return " (an empty body)"
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return fmt.Sprintf(" (it begins %q)", s)
}
