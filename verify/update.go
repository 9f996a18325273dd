package verify

import (
	"context"
	"errors"
	"fmt"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// UpdateOptions configures [Update].
type UpdateOptions struct {
	// Sources restricts the update to the sources of these names; empty:
	// every source of sources.json.
	Sources []string
	// BaseURL, when not empty, replaces the scheme and host of every
	// source's URL, keeping its path and query ("http://127.0.0.1:8080"
	// fetches https://openai.com/gptbot.json from
	// http://127.0.0.1:8080/gptbot.json): for a mirror, and for tests.
	BaseURL string
	// Now dates a list whose shape carries no creation time when the
	// response has no Last-Modified header; nil: time.Now.
	Now func() time.Time
	// MaxBytes bounds a response body; 0: 32 MiB.
	MaxBytes int64
	// UserAgent is sent with every request; "": "crawlaudit (ranges update)".
	UserAgent string
}

// UpdateResult says what Update did for one source.
type UpdateResult struct {
	Source string `json:"source"`
	URL    string `json:"url"` // the address fetched
	// Skipped says why the source was not fetched (no machine-readable
	// shape established, not published by the operator); "" when it was.
	Skipped string `json:"skipped,omitempty"`
	// Created and Prefixes describe the list fetched.
	Created  time.Time `json:"created,omitzero"`
	Prefixes int       `json:"prefixes"`
	// File is the file written; "" when none was (Unchanged, or an error).
	File string `json:"file,omitempty"`
	// Unchanged: the newest list already stored has the same prefixes.
	Unchanged bool `json:"unchanged,omitempty"`
	// Dropped are the special-purpose entries of the list fetched, each
	// with why: the file keeps them as published, and audits drop them.
	Dropped []string `json:"dropped,omitempty"`
	// Err is why the source failed; nil when it did not.
	Err error `json:"-"`
}

// Update downloads the current list of each source from its published
// address, and stores it in dir as DIR/<source>/<creation time>.json,
// verbatim, when its prefix set differs from the newest list already
// stored there, so the directory keeps each list's history. A body that does not parse in its source's
// shape is refused, and nothing is stored for that source; so is a list
// that parses but is implausible (a *[RefusedError]: empty, a default
// route, special-purpose ranges, most of the stored list dropped, an
// impossible date), and the list stored before stays in effect. Files are
// written to a temporary name and renamed when complete, so that a reader
// never sees half a list.
//
// Sources without an established machine-readable shape, and lists not
// published by the operator, are skipped (the result says why). A failure
// of one source does not stop the others: the error returned joins them,
// and each result holds its own.
func Update(ctx context.Context, client *http.Client, dir string, opt UpdateOptions) ([]UpdateResult, error) {
	t, err := table()
	if err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	var entries []tableEntry
	if len(opt.Sources) == 0 {
		entries = t.Sources
	} else {
		for _, name := range opt.Sources {
			i := slices.IndexFunc(t.Sources, func(e tableEntry) bool { return e.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("unknown range source %q (the sources are: %s)", name, strings.Join(SourceNames(), ", "))
			}
			entries = append(entries, t.Sources[i])
		}
	}
	var results []UpdateResult
	var errs []error
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return results, errors.Join(append(errs, err)...)
		}
		res := UpdateResult{Source: e.Name, URL: e.URL}
		switch {
		case !e.Authoritative:
			res.Skipped = "not published by the operator (derived from its AS)"
		case e.Format == "":
			res.Skipped = "no machine-readable shape established for " + e.URL
		default:
			if res.URL, err = rewriteURL(e.URL, opt.BaseURL); err == nil {
				err = update(ctx, client, dir, newSource(e), &res, opt)
			}
			if err != nil {
				res.Err = err
				errs = append(errs, fmt.Errorf("%s: %w", e.Name, err))
			}
		}
		results = append(results, res)
	}
	return results, errors.Join(errs...)
}

// update fetches, parses and stores the list of one source.
func update(ctx context.Context, client *http.Client, dir string, s *Source, res *UpdateResult, opt UpdateOptions) error {
	body, lastModified, err := fetch(ctx, client, res.URL, opt)
	if err != nil {
		return err
	}
	var fileTime time.Time
	if !hasCreationTime(s.Format) {
		fileTime = lastModified
		if fileTime.IsZero() {
			now := time.Now
			if opt.Now != nil {
				now = opt.Now
			}
			fileTime = now()
		}
		fileTime = fileTime.UTC().Truncate(time.Second)
	}
	l, err := ParseFile(s.Format, res.URL, body, fileTime)
	if err != nil {
		return err
	}
	res.Created, res.Prefixes = l.Created, l.Len()

	srcDir := filepath.Join(dir, s.Name)
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		return err
	}
	stored, files, err := readSourceDir(osFiles{}, s, srcDir)
	if err != nil {
		return fmt.Errorf("the lists already stored: %w", err)
	}
	now := time.Now()
	if opt.Now != nil {
		now = opt.Now()
	}
	// The newest accepted stored list is the one a cut download is
	// compared with.
	var prev *List
	if len(stored) > 0 {
		vs := newSource(tableEntry{Name: s.Name})
		if err := vs.setVetted(stored, files.name, files.written, now); err != nil {
			return fmt.Errorf("the lists already stored: %w", err)
		}
		if n := len(vs.Versions); n > 0 {
			prev = vs.Versions[n-1]
		}
	}
	v := vetList(l, prev, now, time.Time{})
	if v.list == nil {
		return &RefusedError{File: res.URL, Created: l.Created, Reasons: v.refused}
	}
	res.Dropped = v.dropped
	var newest *List
	for _, m := range stored {
		if newest == nil || m.Created.After(newest.Created) {
			newest = m
		}
	}
	if newest != nil && newest.samePrefixes(l) {
		res.Unchanged = true
		return nil
	}
	p := filepath.Join(srcDir, fileName(l.Created))
	for _, m := range stored {
		if files.name(m) == p {
			if m.samePrefixes(l) {
				res.Unchanged = true
				return nil
			}
			return fmt.Errorf("%s already holds a different list created at the same time", p)
		}
	}
	if err := atomicfile.WriteFile(p, body); err != nil {
		return err
	}
	res.File = p
	return nil
}

// fetch GETs u and returns its body and Last-Modified time (zero when
// absent).
func fetch(ctx context.Context, client *http.Client, u string, opt UpdateOptions) ([]byte, time.Time, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, time.Time{}, err
	}
	ua := opt.UserAgent
	if ua == "" {
		ua = "crawlaudit (ranges update)"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, time.Time{}, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	limit := opt.MaxBytes
	if limit <= 0 {
		limit = 32 << 20
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(body)) > limit {
		return nil, time.Time{}, fmt.Errorf("GET %s: the body is larger than %d bytes", u, limit)
	}
	var lm time.Time
	if v := resp.Header.Get("Last-Modified"); v != "" {
		if t, err := http.ParseTime(v); err == nil {
			lm = t
		}
	}
	return body, lm, nil
}

// rewriteURL replaces the scheme and host of raw by those of base.
func rewriteURL(raw, base string) (string, error) {
	if base == "" {
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	b, err := url.Parse(base)
	if err != nil || b.Scheme == "" || b.Host == "" {
		return "", fmt.Errorf("bad base URL %q", base)
	}
	u.Scheme, u.Host = b.Scheme, b.Host
	u.Path = strings.TrimSuffix(b.Path, "/") + u.Path
	return u.String(), nil
}
