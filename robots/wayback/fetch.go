package wayback

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// readPrevious reads the versions already in the host directory, whose
// bodies need not be fetched again. A directory that is not one history
// fetch wrote is refused: replacing it would lose the user's files.
func (f *fetcher) readPrevious() error {
	fi, err := os.Stat(f.target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory: choose another -o DIR", f.target)
	}
	m, ok, err := history.ReadManifest(f.target)
	if err != nil {
		return err
	}
	if !ok {
		if es, _ := os.ReadDir(f.target); len(es) > 0 {
			return fmt.Errorf("%s holds files that history fetch did not write (no %s): choose another -o DIR, or move them away", f.target, history.ManifestName)
		}
		return nil
	}
	for _, v := range m.Versions {
		if v.Bytes == 0 || filepath.Base(v.File) != v.File {
			continue
		}
		b, err := os.ReadFile(filepath.Join(f.target, v.File))
		if err == nil && len(b) == v.Bytes {
			f.prev[v.Digest] = b
			f.prev[Digest(b)] = b // the key of a live check
		}
	}
	f.checks = m.LiveChecks
	return nil
}

// withLiveChecks adds to caps the reads of the site by earlier --live runs
// that fall in the period, so that the versions they made are made again:
// the archive does not hold them. A read whose body is no longer in the
// directory is left out with a warning.
func (f *fetcher) withLiveChecks(caps []Capture) []Capture {
	for _, lc := range f.checks {
		if !f.opt.From.IsZero() && lc.Time.Before(f.opt.From) || !f.opt.To.IsZero() && lc.Time.After(f.opt.To) {
			continue
		}
		if lc.Status >= 200 && lc.Status <= 299 && lc.Bytes > 0 {
			if _, ok := f.prev[lc.Digest]; !ok {
				f.res.Warnings = append(f.res.Warnings, fmt.Sprintf("%s read at %s: its body is no longer in %s; left out", lc.URL, lc.Time.Format(time.RFC3339), f.target))
				continue
			}
		}
		status := fmt.Sprint(lc.Status)
		if lc.Status >= 200 && lc.Status <= 299 {
			status = "200"
		}
		caps = append(caps, Capture{Timestamp: lc.Time.UTC().Format(cdxTimeLayout), Time: lc.Time.UTC(),
			Original: lc.URL, Status: status, Digest: lc.Digest, live: true})
	}
	sortCaptures(caps)
	return caps
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

// build walks the captures in time order and makes the versions.
func (f *fetcher) build(ctx context.Context, caps []Capture) ([]*version, error) {
	seen := make(map[string]bool)
	for _, c := range caps {
		if c.Status == "200" && !c.live && !seen[c.Digest] {
			seen[c.Digest] = true
			if _, ok := f.prev[c.Digest]; !ok {
				if _, err := os.Stat(f.cachePath(c.Digest)); err != nil {
					f.need++
				}
			}
		}
	}
	var (
		vs  []*version
		cur *version
	)
	unversioned := func(c Capture, reason string) {
		f.res.Manifest.Unversioned = append(f.res.Manifest.Unversioned, history.ManifestCapture{
			Time: c.Time, Status: c.Status, Original: c.Original, Digest: c.Digest, Reason: reason})
	}
	sighting := func(c Capture) {
		cur.LastSeen = c.Time
		cur.Captures++
	}
	start := func(c Capture, status int, body []byte) {
		v := &version{body: body}
		v.File = c.Time.UTC().Format(time.RFC3339) + ".txt"
		v.FirstSeen, v.LastSeen = c.Time, c.Time
		if cur != nil {
			nb := cur.LastSeen
			v.NotBefore = &nb
		}
		v.Status, v.Digest, v.Bytes = status, c.Digest, len(body)
		v.Capture, v.Captures = captureURL(f.archive, c), 1
		if c.live {
			v.Capture, v.Live = c.Original, true
		}
		vs = append(vs, v)
		cur = v
	}
	for _, c := range caps {
		status, _ := parseStatus(c.Status)
		switch {
		case status == 200:
			if cur != nil && cur.Status == 200 && c.Digest == cur.Digest {
				sighting(c)
				continue
			}
			body, err := f.body(ctx, c)
			if err != nil {
				return nil, err
			}
			switch {
			case cur != nil && bytes.Equal(body, cur.body):
				sighting(c)
			case cur != nil && c.Time.Equal(cur.FirstSeen):
				unversioned(c, "captured in the same second as the version before, with other content")
			default:
				start(c, 200, body)
			}
		case status >= 400 && status <= 499:
			switch {
			case cur != nil && len(cur.body) == 0:
				sighting(c)
			case cur != nil && c.Time.Equal(cur.FirstSeen):
				unversioned(c, "captured in the same second as the version before, with other content")
			default:
				start(c, status, nil)
			}
		case c.Status == "-" && cur != nil && cur.Status == 200 && c.Digest == cur.Digest:
			sighting(c) // a revisit record: the same body as before
		case status >= 300 && status <= 399:
			unversioned(c, "redirect: the archive holds no body of the robots.txt it led to at this instant")
		case status >= 500 && status <= 599:
			unversioned(c, "server error: the robots.txt was unreachable (RFC 9309 §2.3.1.4), its content unknown")
		default:
			unversioned(c, "status other than 2xx, 3xx, 4xx or 5xx: its content unknown")
		}
	}
	return vs, nil
}

// parseStatus reads a CDX status code.
func parseStatus(s string) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || len(s) != 3 {
		return 0, false
	}
	return n, true
}

// body returns the body of the 200 capture c: from this run, the
// directory, the bodies a stopped run kept, or the archive.
func (f *fetcher) body(ctx context.Context, c Capture) ([]byte, error) {
	if b, ok := f.known[c.Digest]; ok {
		return b, nil
	}
	if b, ok := f.prev[c.Digest]; ok {
		f.known[c.Digest] = b
		if !c.live {
			f.res.Reused++
		}
		return b, nil
	}
	if c.live {
		return nil, nil // an empty body read by --live
	}
	if b, err := os.ReadFile(f.cachePath(c.Digest)); err == nil {
		f.known[c.Digest] = b
		f.res.Reused++
		return b, nil
	}
	u := captureURL(f.archive, c)
	r, err := f.c.get(ctx, u, MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	if r.status != http.StatusOK {
		return nil, fmt.Errorf("%s: the archive answered HTTP %d %s for a capture it lists as 200%s; narrow --from/--to to leave it out, or try again later",
			u, r.status, http.StatusText(r.status), snippet(r.body))
	}
	if err := checkBody(u, r.body, archiveHint); err != nil {
		return nil, err
	}
	if d := Digest(r.body); d != c.Digest {
		f.res.Warnings = append(f.res.Warnings, fmt.Sprintf("%s: the body's SHA-1 is %s, the archive lists %s; kept as read", u, d, c.Digest))
	}
	if err := os.MkdirAll(f.cacheDir, 0o755); err == nil {
		atomicfile.WriteFile(f.cachePath(c.Digest), r.body) // best effort: only a resumed run needs it
	}
	f.known[c.Digest] = r.body
	f.res.Fetched++
	f.done++
	if f.opt.OnBody != nil {
		f.opt.OnBody(f.done, max(f.need, f.done))
	}
	return r.body, nil
}

// checkBody refuses a body over MaxBodyBytes, or one that is plainly not a
// robots.txt; u names it, and hint says what to do about it.
func checkBody(u string, body []byte, hint string) error {
	if len(body) > MaxBodyBytes {
		return fmt.Errorf("%s: the body is over 500 KiB, the most a crawler must parse (RFC 9309 §2.5): surely not a robots.txt; %s", u, hint)
	}
	if d, bad := robots.Parse(body).NotRobotsTxt(); bad {
		return fmt.Errorf("%s: line %d: %s; %s", u, d.Line, d.Message, hint)
	}
	return nil
}

// Hints of checkBody: what to do about a bad capture, a bad live file.
const (
	archiveHint = "an error page of the archive, or what the site served then: narrow --from/--to to leave it out, or try again later"
	liveHint    = "fix what the site serves at /robots.txt, or fetch without --live"
)

// Digest is the archive's digest of body: the SHA-1, in base 32.
func Digest(body []byte) string {
	sum := sha1.Sum(body)
	return base32.StdEncoding.EncodeToString(sum[:])
}

// cachePath is where a body of digest d is kept until the directory is
// written (a digest is the archive's text: hashed into a safe name).
func (f *fetcher) cachePath(d string) string {
	sum := sha256.Sum256([]byte(d))
	return filepath.Join(f.cacheDir, hex.EncodeToString(sum[:12])+".txt")
}

// keptNote adds to err that the bodies fetched are kept for the next run.
func (f *fetcher) keptNote(err error) error {
	if f.res.Fetched == 0 || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("%w (nothing was written; the %d capture(s) read are kept in %s: run the same command again to go on from there)", err, f.res.Fetched, f.cacheDir)
}

// write builds the host directory beside the old one and puts it in place.
func (f *fetcher) write(vs []*version) error {
	m := &f.res.Manifest
	m.Host, m.Archive = f.host, f.archive
	if !f.opt.From.IsZero() {
		m.From = f.opt.From.UTC().Format(time.RFC3339)
	}
	if !f.opt.To.IsZero() {
		m.To = f.opt.To.UTC().Format(time.RFC3339)
	}
	m.Versions = make([]history.ManifestVersion, len(vs))
	for i, v := range vs {
		m.Versions[i] = v.ManifestVersion
	}
	m.LiveChecks = f.checks
	if m.Unversioned == nil {
		m.Unversioned = []history.ManifestCapture{}
	}
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	js = append(js, '\n')
	tmp := atomicfile.TempPath(f.target)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		atomicfile.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", f.target, err)
	}
	for _, v := range vs {
		if err := writeSynced(filepath.Join(tmp, v.File), v.body); err != nil {
			atomicfile.Remove(tmp)
			return fmt.Errorf("cannot write %s: %w", f.target, err)
		}
	}
	if err := writeSynced(filepath.Join(tmp, history.ManifestName), js); err != nil {
		atomicfile.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", f.target, err)
	}
	f.res.Dir = f.target
	return atomicfile.ReplaceDir(tmp, f.target)
}

// writeSynced writes a new file and syncs it, so that the directory renamed
// into place holds complete files even after a power cut.
func writeSynced(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(data); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
