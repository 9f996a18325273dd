package wayback

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/robots"
)

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
