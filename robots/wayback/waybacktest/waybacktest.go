package waybacktest

import (
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Capture is one capture the stand-in archive holds.
type Capture struct {
	// Timestamp is the 14-digit UTC capture time (YYYYMMDDhhmmss).
	Timestamp string
	// Original is the URL captured (http://www.example.com:80/robots.txt).
	Original string
	// Status is the status captured ("200", "404", "302", "503", "-").
	Status string
	// Body is what the site served; Digest its SHA-1 in base 32 when empty.
	Body   string
	Digest string
}

// Archive is a running stand-in archive.
type Archive struct {
	*httptest.Server
	// PageSize is the most captures per CDX answer before a resumption
	// key (0: all).
	PageSize int
	// Intercept, when set, sees every request first and handles it itself
	// by returning true (to answer 429 or 503, or an HTML page).
	Intercept func(w http.ResponseWriter, r *http.Request) bool

	mu       sync.Mutex
	captures []Capture
	// CDXRequests and BodyRequests count the requests of each kind
	// (intercepted ones included).
	CDXRequests, BodyRequests atomic.Int64
}

// New starts an archive holding caps; the test's Cleanup closes it.
func New(t interface{ Cleanup(func()) }, caps []Capture) *Archive {
	a := &Archive{}
	for _, c := range caps {
		if c.Digest == "" {
			c.Digest = Digest(c.Body)
		}
		a.captures = append(a.captures, c)
	}
	sort.SliceStable(a.captures, func(i, j int) bool {
		ki, kj := key(a.captures[i].Original), key(a.captures[j].Original)
		if ki != kj {
			return ki < kj
		}
		return a.captures[i].Timestamp < a.captures[j].Timestamp
	})
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.Close)
	return a
}

// Digest is the archive's digest of body: SHA-1 in base 32.
func Digest(body string) string {
	sum := sha1.Sum([]byte(body))
	return base32.StdEncoding.EncodeToString(sum[:])
}

// key is the canonical form the CDX API matches URLs by: no scheme, no
// "www.", no default port, lower-case host.
func key(raw string) string {
	s := raw
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	host, path, _ := strings.Cut(s, "/")
	host = strings.ToLower(host)
	if h, p, ok := strings.Cut(host, ":"); ok && (p == "80" || p == "443") {
		host = h
	}
	host = strings.TrimPrefix(host, "www.")
	return host + "/" + path
}

func (a *Archive) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/cdx/search/cdx":
		a.CDXRequests.Add(1)
	case strings.HasPrefix(r.URL.Path, "/web/"):
		a.BodyRequests.Add(1)
	}
	if a.Intercept != nil && a.Intercept(w, r) {
		return
	}
	switch {
	case r.URL.Path == "/cdx/search/cdx":
		a.cdx(w, r)
	case strings.HasPrefix(r.URL.Path, "/web/"):
		a.body(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (a *Archive) cdx(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	want := key(q.Get("url"))
	from := pad(q.Get("from"), '0')
	to := pad(q.Get("to"), '9')
	fl := strings.Split(q.Get("fl"), ",")
	if q.Get("fl") == "" {
		fl = []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}
	}
	start := 0
	if k := q.Get("resumeKey"); k != "" {
		n, err := strconv.Atoi(k)
		if err != nil {
			http.Error(w, "bad resumeKey", http.StatusBadRequest)
			return
		}
		start = n
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	if a.PageSize > 0 && (limit <= 0 || limit > a.PageSize) {
		limit = a.PageSize
	}
	a.mu.Lock()
	var match []Capture
	for _, c := range a.captures {
		if key(c.Original) == want && c.Timestamp >= from && c.Timestamp <= to {
			match = append(match, c)
		}
	}
	a.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain")
	if len(match) == 0 || start >= len(match) {
		fmt.Fprint(w, "[]")
		return
	}
	rows := [][]string{fl}
	end := len(match)
	if limit > 0 && start+limit < end {
		end = start + limit
	}
	for _, c := range match[start:end] {
		row := make([]string, len(fl))
		for i, f := range fl {
			switch f {
			case "urlkey":
				row[i] = key(c.Original)
			case "timestamp":
				row[i] = c.Timestamp
			case "original":
				row[i] = c.Original
			case "mimetype":
				row[i] = "text/plain"
			case "statuscode":
				row[i] = c.Status
			case "digest":
				row[i] = c.Digest
			case "length":
				row[i] = strconv.Itoa(len(c.Body) + 300)
			}
		}
		rows = append(rows, row)
	}
	if end < len(match) && q.Get("showResumeKey") == "true" {
		rows = append(rows, []string{}, []string{strconv.Itoa(end)})
	}
	// One row per line, as the archive writes it.
	fmt.Fprint(w, "[")
	for i, row := range rows {
		b, _ := json.Marshal(row)
		if i > 0 {
			fmt.Fprint(w, ",\n")
		}
		w.Write(b)
	}
	fmt.Fprint(w, "]\n")
}

// pad pads a 1- to 14-digit CDX bound to 14 digits.
func pad(s string, c byte) string {
	for len(s) < 14 {
		s += string(c)
	}
	return s
}

func (a *Archive) body(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/web/")
	ts, orig, ok := strings.Cut(rest, "id_/")
	if r.URL.RawQuery != "" {
		orig += "?" + r.URL.RawQuery
	}
	a.mu.Lock()
	var found *Capture
	for i := range a.captures {
		if ok && a.captures[i].Timestamp == ts && a.captures[i].Original == orig {
			found = &a.captures[i]
		}
	}
	a.mu.Unlock()
	if found == nil {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><title>Wayback Machine</title></head><body>Hrm. The Wayback Machine has not archived that URL: %s</body></html>\n", url.PathEscape(orig))
		return
	}
	status, _ := strconv.Atoi(found.Status)
	if status == 0 {
		status = http.StatusOK
	}
	if status >= 300 && status <= 399 {
		w.Header().Set("Location", "https://"+key(found.Original))
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	fmt.Fprint(w, found.Body)
}
