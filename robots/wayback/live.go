package wayback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/crawlaudit/crawlaudit/robots/history"
)

// maxRedirects is the number of consecutive redirects followed to the live
// robots.txt: RFC 9309 §2.3.1.2 asks for at least five, and allows taking
// the file as unavailable after more.
const maxRedirects = 5

// errTooManyRedirects stops the live fetch after maxRedirects.
var errTooManyRedirects = errors.New("more than 5 consecutive redirects")

// liveTest, set by tests, replaces the live fetch's client (one that trusts
// a test server's certificate) and its URL.
var liveTest struct {
	client *http.Client
	url    func(host string) string
}

// live fetches the site's own robots.txt and adds it as a version dated
// now when it differs from the newest; what it found goes to Result.Live.
func (f *fetcher) live(ctx context.Context, vs []*version) ([]*version, error) {
	u := "https://" + f.host + "/robots.txt"
	hc := &http.Client{Timeout: 30 * time.Second}
	if liveTest.client != nil {
		hc = liveTest.client
		u = liveTest.url(f.host)
	}
	c := *hc
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return errTooManyRedirects
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.c.userAgent)
	var (
		status int
		body   []byte
	)
	resp, err := c.Do(req)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, errTooManyRedirects):
		status = http.StatusNotFound // unavailable, RFC 9309 §2.3.1.2
		f.res.Live = fmt.Sprintf("%s: more than %d consecutive redirects: unavailable, which allows all (RFC 9309 §2.3.1.2)", u, maxRedirects)
	case err != nil:
		f.res.Live = fmt.Sprintf("%s: unreachable (%v): no version added", u, unwrapURLError(err))
		return vs, nil
	default:
		defer resp.Body.Close()
		status = resp.StatusCode
		body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
		if err != nil {
			f.res.Live = fmt.Sprintf("%s: unreachable (reading the body: %v): no version added", u, err)
			return vs, nil
		}
	}
	check := history.ManifestLiveCheck{Time: f.now().UTC().Truncate(time.Second), URL: u, Status: status}
	if status >= 200 && status <= 299 {
		check.Digest, check.Bytes = Digest(body), len(body)
	}
	var cur *version
	if len(vs) > 0 {
		cur = vs[len(vs)-1]
	}
	now := f.now().UTC().Truncate(time.Second)
	switch {
	case status >= 200 && status <= 299:
		if err := checkBody(u, body, liveHint); err != nil {
			return nil, err
		}
	case status >= 400 && status <= 499:
		body = nil
		if f.res.Live == "" {
			f.res.Live = fmt.Sprintf("%s: HTTP %d: unavailable, which allows all (RFC 9309 §2.3.1.3)", u, status)
		}
	default:
		f.res.Live = fmt.Sprintf("%s: HTTP %d: unreachable (RFC 9309 §2.3.1.4): no version added", u, status)
		return vs, nil
	}
	f.checks = append(f.checks, check)
	if cur != nil && bytes.Equal(body, cur.body) {
		cur.LastSeen = now
		cur.Captures++
		f.res.Live = fmt.Sprintf("%s: the same as the newest version (%s): no version added", u, cur.File)
		return vs, nil
	}
	if cur != nil && !now.After(cur.FirstSeen) {
		return nil, fmt.Errorf("%s: the clock (%s) is not after the newest capture (%s): check the system clock", u, now.Format(time.RFC3339), cur.FirstSeen.Format(time.RFC3339))
	}
	v := &version{body: body}
	v.File = now.Format(time.RFC3339) + ".txt"
	v.FirstSeen, v.LastSeen = now, now
	if cur != nil {
		nb := cur.LastSeen
		v.NotBefore = &nb
	}
	v.Status, v.Digest, v.Bytes = status, Digest(body), len(body)
	v.Capture, v.Captures, v.Live = u, 1, true
	if f.res.Live == "" {
		f.res.Live = fmt.Sprintf("%s: differs from the newest version: added as %s", u, v.File)
	} else {
		f.res.Live += ": added as " + v.File
	}
	return append(vs, v), nil
}
