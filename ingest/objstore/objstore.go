package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	// The URL openers of the clouds the audit reads from: each registers
	// its scheme with blob.DefaultURLMux and takes credentials from its
	// cloud's standard chain.
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"
)

// schemes are the URL schemes that name objects rather than files.
var schemes = []string{"s3://", "gs://", "azblob://", "https://", "http://"}

// IsURL reports whether s names objects (s3://, gs://, azblob://,
// https://, http://) rather than a local file.
func IsURL(s string) bool {
	for _, p := range schemes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// Name returns how the objects of raw are shown: the URL without its
// query, fragment and user information, which may hold credentials (a
// presigned URL's signature, a SAS token).
func Name(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			raw = raw[:i]
		}
		if i := strings.Index(raw, "://"); i >= 0 {
			if j := strings.LastIndex(raw[i+3:], "@"); j >= 0 {
				raw = raw[:i+3] + raw[i+3+j+1:]
			}
		}
		return raw
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.User, u.ForceQuery = "", "", "", nil, false
	return u.String()
}

// Object is one object to read.
type Object struct {
	// Name is the object's URL without query (see Name): the name in the
	// accounting, the file column and every message.
	Name string
	// Size is its size in bytes, -1 when unknown (an https:// object).
	Size int64

	bucket *blob.Bucket // nil for http(s)
	key    string
	url    string // the URL given, query included: requested for http(s)
}

// Skipped is an object listed under a prefix or by a glob that is not read.
type Skipped struct {
	Name   string
	Reason string
}

// Period is the audited period; a zero bound is open.
type Period struct {
	From, To time.Time
}

// Margin is how far outside the period a key's date may lie and its object
// still be read: logs are delivered late (CloudFront: up to 24 hours, its
// file then named by the hour of the requests; ALB: by the delivery date),
// and a day's file holds the requests of its time zone's day edges.
const Margin = 24 * time.Hour

// excludes reports whether an object whose key covers [start, start+span)
// lies outside p by more than Margin.
func (p Period) excludes(start time.Time, span time.Duration) bool {
	lo, hi := start.Add(-Margin), start.Add(span+Margin)
	if !p.From.IsZero() && !hi.After(p.From) {
		return true
	}
	return !p.To.IsZero() && lo.After(p.To)
}

// Store opens the buckets of a run and reads their objects. It is safe for
// concurrent use; Close closes the buckets.
type Store struct {
	// HTTPClient fetches https:// and http:// objects (nil: a client whose
	// connections time out when the server does not answer in a minute).
	HTTPClient *http.Client

	mu      sync.Mutex
	buckets []*blob.Bucket
	// byURL are the buckets opened, by bucket URL (scheme, host, query):
	// many URLs of one bucket (the objects of a prefix, each named alone)
	// open it once, as opening builds a client and reads its
	// configuration.
	byURL map[string]*blob.Bucket
}

// Close closes every bucket opened.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, b := range s.buckets {
		errs = append(errs, b.Close())
	}
	s.buckets, s.byURL = nil, nil
	return errors.Join(errs...)
}

var defaultHTTP = &http.Client{Transport: func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = time.Minute
	return t
}()}

func (s *Store) httpClient() *http.Client {
	if s.HTTPClient != nil {
		return s.HTTPClient
	}
	return defaultHTTP
}

// Expand returns the objects raw names: one object, every object under a
// prefix (raw ends in "/" or names a bucket only), or the objects whose
// last key segment matches a glob. Objects of a prefix or glob for which
// skip (when not nil) returns a reason, or whose key's date lies outside
// period (see KeyTime, Margin), are returned as skipped; an object named
// alone is always read. The error says why nothing could be listed; it
// holds no query value of raw.
func (s *Store) Expand(ctx context.Context, raw string, period Period, skip func(key string) string) ([]Object, []Skipped, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, nil, cleanErr(raw, fmt.Errorf("not a valid URL: %w", err))
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "http" || scheme == "https" {
		if u.Host == "" {
			return nil, nil, errors.New("the URL names no host")
		}
		return []Object{{Name: Name(raw), Size: -1, url: raw}}, nil, nil
	}
	if u.Host == "" {
		return nil, nil, fmt.Errorf("the URL names no bucket (write %s://BUCKET/PREFIX/ for every object under a prefix)", scheme)
	}
	b, err := s.bucket(ctx, &url.URL{Scheme: scheme, Host: u.Host, RawQuery: u.RawQuery})
	if err != nil {
		return nil, nil, cleanErr(raw, fmt.Errorf("cannot open the bucket: %w", explain(err)))
	}
	base := scheme + "://" + u.Host + "/"
	key := strings.TrimPrefix(u.Path, "/")
	dir, last := "", key
	if i := strings.LastIndex(key, "/"); i >= 0 {
		dir, last = key[:i+1], key[i+1:]
	}
	switch {
	case key == "" || strings.HasSuffix(key, "/"):
		objs, skipped, err := s.list(ctx, b, raw, base, &blob.ListOptions{Prefix: key}, nil, period, skip)
		if err != nil {
			return nil, nil, cleanErr(raw, err)
		}
		if len(objs)+len(skipped) == 0 {
			return nil, nil, errors.New("no object under this prefix")
		}
		return objs, skipped, nil
	case strings.ContainsAny(last, "*?["):
		if _, err := path.Match(last, ""); err != nil {
			return nil, nil, fmt.Errorf("bad pattern %q: %w", last, err)
		}
		match := func(k string) bool {
			ok, _ := path.Match(last, strings.TrimPrefix(k, dir))
			return ok
		}
		objs, skipped, err := s.list(ctx, b, raw, base, &blob.ListOptions{Prefix: dir, Delimiter: "/"}, match, period, skip)
		if err != nil {
			return nil, nil, cleanErr(raw, err)
		}
		if len(objs)+len(skipped) == 0 {
			return nil, nil, errors.New("no object matches the pattern")
		}
		return objs, skipped, nil
	}
	attrs, err := b.Attributes(ctx, key)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, nil, errors.New("no such object (a URL ending in / reads every object under that prefix)")
		}
		return nil, nil, cleanErr(raw, explain(err))
	}
	return []Object{{Name: base + key, Size: attrs.Size, bucket: b, key: key, url: raw}}, nil, nil
}

// bucket returns the bucket of u (scheme, host and query only), opened
// once.
func (s *Store) bucket(ctx context.Context, u *url.URL) (*blob.Bucket, error) {
	key := u.String()
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.byURL[key]; b != nil {
		return b, nil
	}
	b, err := openBucket(ctx, u)
	if err != nil {
		return nil, err
	}
	if s.byURL == nil {
		s.byURL = map[string]*blob.Bucket{}
	}
	s.byURL[key] = b
	s.buckets = append(s.buckets, b)
	return b, nil
}

// list lists the objects of b that opts and match (nil: all) select.
func (s *Store) list(ctx context.Context, b *blob.Bucket, raw, base string, opts *blob.ListOptions, match func(string) bool, period Period, skip func(string) string) ([]Object, []Skipped, error) {
	var objs []Object
	var skipped []Skipped
	it := b.List(opts)
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return objs, skipped, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("cannot list the objects: %w", explain(err))
		}
		// Directories of a delimited listing, and the empty "folder"
		// objects consoles create, hold no log.
		if o.IsDir || strings.HasSuffix(o.Key, "/") || (match != nil && !match(o.Key)) {
			continue
		}
		name := base + o.Key
		if skip != nil {
			if r := skip(o.Key); r != "" {
				skipped = append(skipped, Skipped{Name: name, Reason: r})
				continue
			}
		}
		if t, span, ok := KeyTime(o.Key); ok && period.excludes(t, span) {
			when := t.Format("2006-01-02")
			if span < 24*time.Hour {
				when = t.Format("2006-01-02 15:00 UTC")
			}
			skipped = append(skipped, Skipped{Name: name, Reason: "its key dates it " + when + ", more than a day outside the audited period (--from/--to)"})
			continue
		}
		objs = append(objs, Object{Name: name, Size: o.Size, bucket: b, key: o.Key, url: raw})
	}
}

// Open starts reading o: the body of a GET, streamed as it arrives. The
// error holds no query value of o's URL.
func (s *Store) Open(ctx context.Context, o *Object) (io.ReadCloser, error) {
	if o.bucket != nil {
		r, err := o.bucket.NewReader(ctx, o.key, nil)
		if err != nil {
			return nil, cleanErr(o.url, fmt.Errorf("cannot read the object: %w", explain(err)))
		}
		return r, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.url, nil)
	if err != nil {
		return nil, cleanErr(o.url, err)
	}
	// The object as stored: its compression is recognised, and its
	// integrity checked, like a file's.
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := s.httpClient().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL, query included
		}
		return nil, cleanErr(o.url, fmt.Errorf("GET failed: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET answered %s", resp.Status)
	}
	return resp.Body, nil
}

// requestIDs are the AWS SDK's request identifiers in an error: of use to
// AWS support, noise to a reader.
var requestIDs = regexp.MustCompile(`, RequestID: [^,]*, HostID: [^,]*`)

// explain puts the errors of the clouds in words: a missing object, a
// refusal, and where the credentials came from.
func explain(err error) error {
	msg := oneLine(requestIDs.ReplaceAllString(err.Error(), ""))
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		msg = "not found (check the bucket and the key): " + msg
	case gcerrors.PermissionDenied:
		msg = "access denied to the credentials found in the cloud's standard chain (environment, profile, instance role): " + msg
	}
	return &cleanError{msg: msg, err: err}
}

// oneLine joins the lines of a message with "; ", dropping the rules of
// dashes the Azure SDK frames its responses with: a message is shown on
// one line.
func oneLine(msg string) string {
	if !strings.Contains(msg, "\n") {
		return msg
	}
	var parts []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" && strings.Trim(l, "-") != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// safeParams are query parameters of gocloud's URL openers whose values
// are settings, not secrets: messages may show them.
var safeParams = map[string]bool{
	"region": true, "endpoint": true, "use_path_style": true, "s3ForcePathStyle": true, "disable_https": true,
	"awssdk": true, "anonymous": true, "dualstack": true, "fips": true, "accelerate": true, "hostname_immutable": true,
	"protocol": true, "domain": true, "localemu": true, "cdn": true, "storage_account": true,
}

// cleanError is an error whose message was stripped of a URL's secrets.
// It does not unwrap (which would hand the original message out), but
// errors.Is still sees through it, for context cancellation.
type cleanError struct {
	msg string
	err error
}

func (e *cleanError) Error() string        { return e.msg }
func (e *cleanError) Is(target error) bool { return errors.Is(e.err, target) }

// cleanErr returns err with raw written as its Name and every query value
// of raw that may be a secret (any parameter not in safeParams, four
// characters or more) replaced by "REDACTED".
func cleanErr(raw string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	u, perr := url.Parse(raw)
	if perr == nil {
		msg = strings.ReplaceAll(msg, raw, Name(raw))
		if u.RawQuery != "" {
			bucketURL := u.Scheme + "://" + u.Host + "?" + u.RawQuery
			msg = strings.ReplaceAll(msg, bucketURL, Name(bucketURL))
			msg = strings.ReplaceAll(msg, u.RawQuery, "REDACTED")
		}
		for k, vs := range u.Query() {
			if safeParams[k] {
				continue
			}
			for _, v := range vs {
				if len(v) >= 4 {
					msg = strings.ReplaceAll(msg, v, "REDACTED")
					msg = strings.ReplaceAll(msg, url.QueryEscape(v), "REDACTED")
				}
			}
		}
		if u.User != nil {
			if p, ok := u.User.Password(); ok && len(p) >= 4 {
				msg = strings.ReplaceAll(msg, p, "REDACTED")
			}
		}
	} else if i := strings.IndexAny(raw, "?#"); i >= 0 && len(raw)-i > 4 {
		msg = strings.ReplaceAll(msg, raw[i:], "")
	}
	return &cleanError{msg: msg, err: err}
}
