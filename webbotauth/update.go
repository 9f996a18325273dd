package webbotauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// UpdateOptions configures [Update].
type UpdateOptions struct {
	// Hosts are the signer hosts to fetch; empty: every signer of the
	// signer table and every host DIR already holds.
	Hosts []string
	// BaseURL, when not empty, replaces the scheme and host of every
	// directory URL, keeping its path ("http://127.0.0.1:8080" fetches
	// https://chatgpt.com/.well-known/... from
	// http://127.0.0.1:8080/.well-known/...): for a mirror, and for tests.
	BaseURL string
	// Now dates the files written; nil: time.Now.
	Now func() time.Time
	// MaxBytes bounds a response body; 0: 1 MiB (a directory holds a few
	// keys).
	MaxBytes int64
	// UserAgent is sent with every request; "": "crawlaudit (keys update)".
	UserAgent string
}

// UpdateResult says what Update did for one signer.
type UpdateResult struct {
	Host string `json:"host"`
	URL  string `json:"url"`
	// Keys is the number of usable keys fetched.
	Keys int `json:"keys"`
	// File is the file written; "" when none was (Unchanged, or an error).
	File string `json:"file,omitempty"`
	// Unchanged: the newest file already stored holds the same keys.
	Unchanged bool `json:"unchanged,omitempty"`
	// Notes tell of keys of the directory that cannot be used.
	Notes []string `json:"notes,omitempty"`
	Err   error    `json:"-"`
}

// ErrRefused is wrapped by the error of a directory Update does not store:
// not a JWKS, or without any usable key.
var ErrRefused = errors.New("refused")

// Update fetches each signer's key directory
// ({origin}/.well-known/http-message-signatures-directory) and stores it,
// as served, in dir as DIR/<host>/<fetch instant>.json when its keys differ
// from those of the newest file already there. The directory keeps the
// history: an audit looks each key up as of the request's time. A failure
// of one signer does not stop the others; the error returned is only for
// an interrupted update.
func Update(ctx context.Context, client *http.Client, dir string, opt UpdateOptions) ([]UpdateResult, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 1 << 20
	}
	if opt.UserAgent == "" {
		opt.UserAgent = "crawlaudit (keys update)"
	}
	hosts := opt.Hosts
	if len(hosts) == 0 {
		signers, err := Signers()
		if err != nil {
			return nil, err
		}
		for _, s := range signers {
			if _, h, err := signerOrigin(s.Origin); err == nil {
				hosts = append(hosts, h)
			}
		}
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					hosts = append(hosts, e.Name())
				}
			}
		}
		slices.Sort(hosts)
		hosts = slices.Compact(hosts)
	}
	var out []UpdateResult
	for _, h := range hosts {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, updateOne(ctx, client, dir, strings.ToLower(h), opt))
	}
	return out, nil
}

func updateOne(ctx context.Context, client *http.Client, dir, host string, opt UpdateOptions) UpdateResult {
	res := UpdateResult{Host: host, URL: "https://" + host + DirectoryPath}
	if strings.ContainsAny(host, `/\`) || host == "." || host == ".." {
		res.Err = fmt.Errorf("%w: %q is not a host name", ErrRefused, host)
		return res
	}
	if opt.BaseURL != "" {
		b, err := url.Parse(opt.BaseURL)
		if err != nil || b.Host == "" {
			res.Err = fmt.Errorf("bad --base-url %q", opt.BaseURL)
			return res
		}
		res.URL = b.Scheme + "://" + b.Host + DirectoryPath
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, res.URL, nil)
	if err != nil {
		res.Err = err
		return res
	}
	req.Header.Set("Accept", "application/http-message-signatures-directory+json, application/json")
	req.Header.Set("User-Agent", opt.UserAgent)
	resp, err := client.Do(req)
	if err != nil {
		res.Err = err
		return res
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		res.Err = fmt.Errorf("%s answered %s", res.URL, resp.Status)
		return res
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, opt.MaxBytes+1))
	if err != nil {
		res.Err = fmt.Errorf("cannot read %s: %w", res.URL, err)
		return res
	}
	if int64(len(body)) > opt.MaxBytes {
		res.Err = fmt.Errorf("%w: %s is larger than %d bytes", ErrRefused, res.URL, opt.MaxBytes)
		return res
	}
	set, err := ParseJWKS(body)
	if err != nil {
		res.Err = fmt.Errorf("%w: %s: %v", ErrRefused, res.URL, err)
		return res
	}
	k := NewKeys()
	now := opt.Now().UTC().Truncate(time.Second)
	for _, n := range k.Add(host, now, res.URL, set) {
		res.Notes = append(res.Notes, n.Reason)
	}
	fetched := k.signers[host].versions[0].keys
	res.Keys = len(fetched)
	if res.Keys == 0 {
		res.Err = fmt.Errorf("%w: %s holds no usable key", ErrRefused, res.URL)
		return res
	}
	// Unchanged when the newest stored file holds the same thumbprints.
	if stored, _, err := LoadDir(dir); err == nil {
		if s := stored.signers[host]; s != nil && len(s.versions) > 0 {
			newest := s.versions[len(s.versions)-1].keys
			if sameKeys(newest, fetched) {
				res.Unchanged = true
				return res
			}
		}
	}
	p := filepath.Join(dir, host, now.Format(time.RFC3339)+".json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		res.Err = err
		return res
	}
	if err := atomicfile.WriteFile(p, body); err != nil {
		res.Err = err
		return res
	}
	res.File = p
	return res
}

func sameKeys(a, b map[string]*key) bool {
	if len(a) != len(b) {
		return false
	}
	for t := range a {
		if _, ok := b[t]; !ok {
			return false
		}
	}
	return true
}
