package wayback

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Capture is one row of a CDX answer: one capture of a URL.
type Capture struct {
	// Timestamp is the capture's 14-digit UTC timestamp as the archive gives
	// it (YYYYMMDDhhmmss); Time the same instant.
	Timestamp string
	Time      time.Time
	// Original is the URL that was captured, as the archive recorded it
	// (http://www.example.com:80/robots.txt).
	Original string
	// Status is the HTTP status captured: "200", "404", or "-" for a revisit
	// record.
	Status string
	// Digest is the archive's digest of the body (base 32 SHA-1).
	Digest string
	// live marks a read of the site itself by an earlier --live run, not a
	// capture of the archive: its body is never asked of the archive.
	live bool
}

// cdxFields are the fields asked for (fl=), in the order asked.
var cdxFields = []string{"timestamp", "original", "statuscode", "digest", "length"}

// cdxTimeLayout is the CDX timestamp format.
const cdxTimeLayout = "20060102150405"

// ErrNotJSON is wrapped by ParseCDX's error when the answer is not a JSON
// CDX answer at all (an HTML page, plain text CDX).
var ErrNotJSON = errors.New("not a JSON CDX answer")

// ParseCDX parses a CDX answer of output=json: an array of rows of strings,
// the first naming the fields. It returns the captures in the order given,
// and the resumption key that showResumeKey=true appends after an empty row
// when more captures remain ("" when none). An empty answer ("" or "[]") has
// no captures. Rows are numbered from 1, the header being row 1, in errors.
func ParseCDX(data []byte) (caps []Capture, resumeKey string, err error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, "", nil
	}
	var rows [][]string
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if len(rows) == 0 {
		return nil, "", nil
	}
	idx := make(map[string]int, len(rows[0]))
	for i, name := range rows[0] {
		idx[name] = i
	}
	var col [4]int
	for i, name := range []string{"timestamp", "original", "statuscode", "digest"} {
		c, ok := idx[name]
		if !ok {
			return nil, "", fmt.Errorf("row 1 (the header) has no field %q (it names %q)", name, rows[0])
		}
		col[i] = c
	}
	for r := 1; r < len(rows); r++ {
		row := rows[r]
		if len(row) == 0 {
			// showResumeKey: an empty row, then the key alone.
			if r+2 == len(rows) && len(rows[r+1]) == 1 {
				return caps, rows[r+1][0], nil
			}
			if r+1 == len(rows) {
				return caps, "", nil
			}
			return nil, "", fmt.Errorf("row %d is empty but not followed by a resumption key alone", r+1)
		}
		if len(row) != len(rows[0]) {
			return nil, "", fmt.Errorf("row %d has %d fields, the header %d", r+1, len(row), len(rows[0]))
		}
		ts := row[col[0]]
		t, err := time.Parse(cdxTimeLayout, ts)
		if err != nil || len(ts) != len(cdxTimeLayout) {
			return nil, "", fmt.Errorf("row %d: cannot parse timestamp %q: want 14 digits, YYYYMMDDhhmmss", r+1, ts)
		}
		orig := row[col[1]]
		if u, err := url.Parse(orig); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, "", fmt.Errorf("row %d: original %q is not an http or https URL", r+1, orig)
		}
		caps = append(caps, Capture{Timestamp: ts, Time: t, Original: orig, Status: row[col[2]], Digest: row[col[3]]})
	}
	return caps, "", nil
}

// sortCaptures puts captures in time order; captures of one second keep
// the archive's order.
func sortCaptures(caps []Capture) {
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].Time.Before(caps[j].Time) })
}

// cdxURL is the CDX query of the captures of host's robots.txt between from
// and to (zero: open), one page of at most limit captures, resumed at
// resumeKey when not "".
func cdxURL(archive, host string, from, to time.Time, limit int, resumeKey string) string {
	q := url.Values{}
	q.Set("url", host+"/robots.txt")
	q.Set("output", "json")
	q.Set("fl", strings.Join(cdxFields, ","))
	if !from.IsZero() {
		q.Set("from", from.UTC().Format(cdxTimeLayout))
	}
	if !to.IsZero() {
		q.Set("to", to.UTC().Format(cdxTimeLayout))
	}
	q.Set("limit", fmt.Sprint(limit))
	q.Set("showResumeKey", "true")
	if resumeKey != "" {
		q.Set("resumeKey", resumeKey)
	}
	return archive + "/cdx/search/cdx?" + q.Encode()
}

// captureURL is the URL of the capture's body as it was served ("id_": no
// rewriting of links, no banner).
func captureURL(archive string, c Capture) string {
	return archive + "/web/" + c.Timestamp + "id_/" + c.Original
}
