package wayback

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/crawlaudit/crawlaudit/robots/history"
)

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
			sighting(c) // a revisit record: the archive saw the body it already had
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
